package dev.quiver.cai;

import dev.quiver.InterchangeException;
import dev.quiver.DeviceType;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * The {@code stream} key of the CUDA Array Interface: the producer names the stream its work is on and the
 * consumer synchronises on it (or makes its own stream wait). {@code None} means no synchronisation is
 * needed; 0 is disallowed (ambiguous between the legacy and the per-thread default stream); 1 is the legacy
 * default stream; 2 the per-thread default stream; any other value a {@code cudaStream_t}. Host memory has
 * no streams.
 */
final class CaiStreams {
    /** CUDA's legacy default stream, {@code cudaStreamLegacy}: what a NULL (default) stream handle is named. */
    static final long LEGACY_DEFAULT = 1;

    private CaiStreams() {}

    /**
     * @param producer a stream handle of the array's backend; NULL is the backend's default stream
     * @return the {@code stream} value naming it: never 0
     */
    static long valueOf(MemorySegment producer) {
        return producer.equals(MemorySegment.NULL) ? LEGACY_DEFAULT : producer.address();
    }

    /**
     * @param type  the device type the descriptor's memory is on
     * @param value the {@code stream} value, null for {@code None}
     * @param path  its key path
     * @return the stream handle to synchronise with, or empty for none
     * @throws InterchangeException for 0, negative values, or a stream for host memory
     */
    static Optional<MemorySegment> handleOf(DeviceType type, Long value, String path) {
        if (value == null) {
            return Optional.empty();
        }
        if (value == 0) {
            throw new InterchangeException(path, "is 0, which the interface disallows (ambiguous between the legacy and the per-thread "
                    + "default stream); producers name the legacy default stream 1 and the per-thread default stream 2");
        }
        if (value < 0) {
            throw new InterchangeException(path, "is " + value + ", not a stream");
        }
        if (type.equals(DeviceType.CPU)) {
            throw new InterchangeException(path, "is " + value + " but the memory is host memory, which has no streams (must be None)");
        }
        return Optional.of(MemorySegment.ofAddress(value));
    }
}
