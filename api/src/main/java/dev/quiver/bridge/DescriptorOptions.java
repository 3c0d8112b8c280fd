package dev.quiver.bridge;

import dev.quiver.ImportOptions;

/**
 * The one check the imports of DLPack tensors, C streams and asynchronous producers share: the options only a
 * CUDA Array Interface descriptor can use (a release action, a consumer stream) are refused, since what those
 * imports take carries its own release and readiness. Stateless; any thread.
 */
public final class DescriptorOptions {
    private DescriptorOptions() {}

    /**
     * @param options the import's options
     * @param carrier what the import takes and why it needs neither option, for the message
     * @throws IllegalArgumentException if {@code options} set a release action or a consumer stream
     */
    public static void refuse(ImportOptions options, String carrier) {
        if (options.releaseAction().isPresent() || options.consumerStreamHandle() != null) {
            throw new IllegalArgumentException("ImportOptions.release and consumerStream are for CUDA Array Interface imports: " + carrier);
        }
    }
}
