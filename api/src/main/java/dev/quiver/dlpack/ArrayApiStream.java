package dev.quiver.dlpack;

import dev.quiver.DeviceType;
import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The {@code stream} argument of the array API's {@code __dlpack__}, implemented once over the SPI so that
 * every backend with streams and events gets it. The consumer names the stream it will use; the producer
 * ({@link DLPack}'s export) makes that stream wait for the array's pending work, without blocking the host.
 *
 * <table class="striped">
 * <caption>Stream values by device type</caption>
 * <tr><th>device types</th><th>{@code None} (null)</th><th>{@code -1}</th><th>0</th><th>1</th><th>2</th><th>other</th></tr>
 * <tr><td>CUDA, CUDA_HOST, CUDA_MANAGED</td><td>legacy default stream (handle 1)</td><td>no synchronisation</td>
 *     <td>rejected (ambiguous)</td><td>legacy default ({@code CU_STREAM_LEGACY})</td>
 *     <td>per-thread default ({@code CU_STREAM_PER_THREAD})</td><td>a {@code cudaStream_t}</td></tr>
 * <tr><td>ROCM, ROCM_HOST</td><td>default stream (NULL)</td><td>no synchronisation</td><td>default stream (NULL)</td>
 *     <td>rejected</td><td>rejected</td><td>a {@code hipStream_t}</td></tr>
 * <tr><td>CPU</td><td>nothing to do</td><td>nothing to do</td><td colspan="4">rejected: host memory has no streams</td></tr>
 * <tr><td>every other type</td><td>the backend's default stream (NULL)</td><td>no synchronisation</td>
 *     <td colspan="4">a stream handle of that backend (0 is NULL, the backend's default stream)</td></tr>
 * </table>
 *
 * <p>Values below -1 are rejected for every type. All methods are stateless and thread-safe.
 */
public final class ArrayApiStream {
    /** The stream value that asks for no synchronisation. */
    public static final long NO_SYNCHRONISATION = -1;
    /** CUDA's legacy default stream, {@code CU_STREAM_LEGACY} / {@code cudaStreamLegacy}. */
    public static final long CUDA_LEGACY_DEFAULT = 1;
    /** CUDA's per-thread default stream, {@code CU_STREAM_PER_THREAD} / {@code cudaStreamPerThread}. */
    public static final long CUDA_PER_THREAD_DEFAULT = 2;

    private ArrayApiStream() {}

    /**
     * Resolves a {@code stream} value to the consumer's stream handle.
     *
     * @param type   the device type of the exported array
     * @param stream the value, null for {@code None}
     * @return the handle of the stream that must wait, or empty when nothing is to be done
     * @throws IllegalArgumentException if the value is not allowed for {@code type}, naming the rule
     */
    public static Optional<MemorySegment> consumerStream(DeviceType type, Long stream) {
        if (stream != null && stream < NO_SYNCHRONISATION) {
            throw new IllegalArgumentException("stream " + stream + " is not a stream: values below -1 are invalid");
        }
        if (stream != null && stream == NO_SYNCHRONISATION) {
            return Optional.empty();
        }
        return switch (type.code()) {
            case DeviceTypeCodes.CPU -> {
                if (stream != null) {
                    throw new IllegalArgumentException("stream " + stream + " for a CPU array: host memory has no streams; pass None or -1");
                }
                yield Optional.empty();
            }
            case DeviceTypeCodes.CUDA, DeviceTypeCodes.CUDA_HOST, DeviceTypeCodes.CUDA_MANAGED -> {
                if (stream != null && stream == 0) {
                    throw new IllegalArgumentException("stream 0 is disallowed for " + type + " arrays: it is ambiguous between the legacy "
                            + "and the per-thread default stream; pass 1 (legacy default), 2 (per-thread default) or a cudaStream_t");
                }
                yield Optional.of(MemorySegment.ofAddress(stream == null ? CUDA_LEGACY_DEFAULT : stream));
            }
            case DeviceTypeCodes.ROCM, DeviceTypeCodes.ROCM_HOST -> {
                if (stream != null && (stream == 1 || stream == 2)) {
                    throw new IllegalArgumentException("stream " + stream + " is not supported for " + type
                            + " arrays: ROCm has no legacy or per-thread default stream values; pass None or 0 (default stream) or a hipStream_t");
                }
                yield Optional.of(stream == null ? MemorySegment.NULL : MemorySegment.ofAddress(stream));
            }
            default -> Optional.of(stream == null ? MemorySegment.NULL : MemorySegment.ofAddress(stream));
        };
    }
}
