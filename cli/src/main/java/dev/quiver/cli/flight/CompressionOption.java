package dev.quiver.cli.flight;

import dev.quiver.flight.FlightCompression;
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
     * {@return the codec the option names}
     * @throws ParameterException a usage error, if it names none
     */
    FlightCompression codec() {
        return switch (compression) {
            case "none" -> FlightCompression.NONE;
            case "lz4" -> FlightCompression.LZ4_FRAME;
            case "zstd" -> FlightCompression.ZSTD;
            default -> throw new ParameterException(mixee.commandLine(), "--compression is none, lz4 or zstd, not " + compression);
        };
    }
}
