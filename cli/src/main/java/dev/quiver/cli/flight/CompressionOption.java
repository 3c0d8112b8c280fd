package dev.quiver.cli.flight;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The {@code --compression} option of the Flight commands that send batches ({@code flight serve},
 * {@code flight put}), as a picocli mixin. Set by picocli, read by the command's thread.
 */
final class CompressionOption {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Option(names = "--compression", paramLabel = "CODEC", defaultValue = "none",
            description = "compress the bodies of the batches sent: none, lz4 (LZ4 frame) or zstd; pays on a slow link (default: ${DEFAULT-VALUE})")
    String compression;

    /**
     * {@return the codec the option names: none, lz4 or zstd, for {@link FlightCalls#compression}} A string, not
     * Flight's type: picocli reads this class's method signatures for every command, {@code --help} included,
     * where Flight's classes are not on the class path.
     * @throws ParameterException a usage error, if it names none
     */
    String codec() {
        return switch (compression) {
            case "none", "lz4", "zstd" -> compression;
            default -> throw new ParameterException(mixee.commandLine(), "--compression is none, lz4 or zstd, not " + compression);
        };
    }
}
