package dev.quiver.device.opencl;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The host memory one {@link OpenClDevice} hands out as pinned ({@code allocateHost}): buffers made with
 * {@code CL_MEM_ALLOC_HOST_PTR} and mapped for reading and writing for as long as they live, the host memory
 * the implementation can move fastest (pinned, on GPU implementations), each remembered by its host address
 * until freed. Thread-safe: the map is concurrent and OpenCL calls are thread-safe.
 */
final class ClMappedBuffers {
    private final OpenCl cl;
    private final MemorySegment context;
    private final MemorySegment queue;
    private final String deviceName;
    /** The {@code cl_mem} behind each mapped host allocation, by host address. */
    private final Map<Long, MemorySegment> buffers = new ConcurrentHashMap<>();

    /**
     * @param cl         the library
     * @param context    the device's context
     * @param queue      the queue that maps and unmaps (the device's default queue), borrowed
     * @param deviceName the device, for messages
     */
    ClMappedBuffers(OpenCl cl, MemorySegment context, MemorySegment queue, String deviceName) {
        this.cl = cl;
        this.context = context;
        this.queue = queue;
        this.deviceName = deviceName;
    }

    /**
     * @param byteSize  bytes
     * @param alignment the alignment the mapping must have
     * @return the mapped host memory, owned by the caller until {@link #unmapAndRelease}
     * @throws OpenClException if OpenCL refuses, or maps the buffer at an address of a smaller alignment
     */
    MemorySegment allocateMapped(long byteSize, long alignment) {
        MemorySegment buffer = cl.createHostBuffer(context, byteSize);
        try {
            MemorySegment mapped = cl.mapBuffer(queue, buffer, byteSize).reinterpret(byteSize);
            if (mapped.address() % alignment != 0) {
                cl.unmap(queue, buffer, mapped);
                throw new OpenClException(ClFunction.clEnqueueMapBuffer.name(), 0, "mapped host memory at 0x"
                        + Long.toHexString(mapped.address()) + " is not aligned to " + alignment + " bytes");
            }
            buffers.put(mapped.address(), buffer);
            return mapped;
        } catch (RuntimeException e) {
            cl.releaseMemObject(buffer);
            throw e;
        }
    }

    /**
     * Unmaps and releases what {@link #allocateMapped} returned.
     *
     * @throws IllegalArgumentException if {@code memory} is not live host memory of this device
     */
    void unmapAndRelease(MemorySegment memory) {
        MemorySegment buffer = buffers.remove(memory.address());
        if (buffer == null) {
            throw new IllegalArgumentException("0x" + Long.toHexString(memory.address()) + " is not host memory of " + deviceName);
        }
        cl.unmap(queue, buffer, memory);
        cl.releaseMemObject(buffer);
    }
}
