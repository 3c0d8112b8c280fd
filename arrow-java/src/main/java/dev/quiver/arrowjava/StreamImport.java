package dev.quiver.arrowjava;

import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowReader;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * A Quiver {@link DeviceArrayStream} (or a C {@code struct ArrowDeviceArrayStream}) of struct arrays as an
 * Arrow Java {@link ArrowReader}. Each batch becomes the reader's {@link ArrowReader#getVectorSchemaRoot()
 * root} without a copy when it is on the CPU; batches on other devices are copied to the host only under
 * {@link DeviceCopy#COPY_TO_HOST}, and refused otherwise (the reader's {@code loadNextBatch} then throws an
 * {@link java.io.IOException} and the batch is released).
 *
 * <p><b>Ownership.</b> The reader takes the stream: {@link ArrowReader#close()} closes the root, the
 * dictionaries and the stream. The root's buffers of a batch are released (the batch's release callback
 * called once) when the next batch is loaded or the reader is closed; transfer vectors out of the root to
 * keep a batch longer. The {@code allocator} is charged for the imported buffers and must stay open until
 * the reader and every vector that took its buffers are closed.
 *
 * <p><b>Threading.</b> One thread at a time, as for any ArrowReader; the stream refuses concurrent use.
 *
 * {@snippet class=dev.quiver.arrowjava.snippets.ArrowJavaSnippets region=stream}
 */
public final class StreamImport {
    private StreamImport() {}

    /**
     * {@return a reader over the stream, owned by the caller}
     * @param stream    a stream of struct arrays on the CPU; owned by the reader from now on
     * @param allocator charged for the imported buffers
     */
    public static ArrowReader toArrowReader(DeviceArrayStream stream, BufferAllocator allocator) {
        return toArrowReader(stream, allocator, DeviceCopy.REFUSE);
    }

    /**
     * {@return a reader over the stream, owned by the caller}
     * @param stream    a stream of struct arrays; owned by the reader from now on
     * @param allocator charged for the imported buffers
     * @param policy    what to do with batches not on the CPU
     */
    public static ArrowReader toArrowReader(DeviceArrayStream stream, BufferAllocator allocator, DeviceCopy policy) {
        Objects.requireNonNull(stream, "stream");
        Objects.requireNonNull(allocator, "allocator");
        Objects.requireNonNull(policy, "policy");
        return new DeviceArrayStreamReader(stream, allocator, policy);
    }

    /**
     * Moves a C stream in ({@link DeviceArrayStream#importFrom(MemorySegment)}) and reads it as an ArrowReader.
     *
     * @param deviceArrayStream a live {@code struct ArrowDeviceArrayStream*}; left released
     * @param allocator         charged for the imported buffers
     * @param policy            what to do with batches not on the CPU
     * @return a reader over the stream, owned by the caller
     */
    public static ArrowReader importFrom(MemorySegment deviceArrayStream, BufferAllocator allocator, DeviceCopy policy) {
        Objects.requireNonNull(allocator, "allocator");
        Objects.requireNonNull(policy, "policy");
        return new DeviceArrayStreamReader(DeviceArrayStream.importFrom(deviceArrayStream), allocator, policy);
    }
}
