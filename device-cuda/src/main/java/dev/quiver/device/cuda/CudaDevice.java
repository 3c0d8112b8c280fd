package dev.quiver.device.cuda;

import dev.quiver.spi.BackendDevice;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import static dev.quiver.device.cuda.CudaConstants.CUDA_ERROR_NOT_READY;
import static dev.quiver.device.cuda.CudaConstants.CUDA_SUCCESS;
import static dev.quiver.device.cuda.CudaConstants.CU_EVENT_DISABLE_TIMING;
import static dev.quiver.device.cuda.CudaConstants.CU_STREAM_DEFAULT;

/**
 * One kind of memory ({@link CudaMemory}) of one CUDA device, in one context.
 *
 * <p><b>Handles.</b> Pointers are {@code CUdeviceptr} values as {@link MemorySegment#ofAddress} (zero-length
 * for device memory; host-accessible segments of the allocated size for pinned and managed memory).
 * Streams are {@code CUstream}s; {@link MemorySegment#NULL} is the legacy default stream, which
 * synchronises with every blocking stream of the context. Events are {@code CUevent}s made with
 * {@code CU_EVENT_DISABLE_TIMING}; an array's {@code sync_event} points to one ({@code CUevent*}, which is
 * the runtime's {@code cudaEvent_t*}), and the array owns both.
 *
 * <p><b>Ordering.</b> Copies are {@code cuMemcpy*Async} on the caller's stream and may return before they
 * complete (copies from pageable host memory may complete earlier, as CUDA documents).
 *
 * <p><b>Threading.</b> All methods may be called from any thread: each pushes the device's context for the
 * duration of the call and pops it, leaving the thread's context stack as it was.
 */
final class CudaDevice implements BackendDevice {
    /** CUDA aligns every allocation of these allocators to at least this many bytes. */
    static final long ALIGNMENT = 256;

    private final CudaDriver driver;
    private final CudaContext context;
    private final CudaMemory memory;
    private final String name;
    private final long totalMemory;
    private final String capability;
    private final Set<Long> allocations = ConcurrentHashMap.newKeySet();

    CudaDevice(CudaDriver driver, CudaContext context, CudaMemory memory, String name, long totalMemory, String capability) {
        this.driver = driver;
        this.context = context;
        this.memory = memory;
        this.name = name;
        this.totalMemory = totalMemory;
        this.capability = capability;
    }

    CudaContext context() {
        return context;
    }

    CudaDriver driver() {
        return driver;
    }

    @Override
    public int deviceType() {
        return memory.deviceType();
    }

    @Override
    public long deviceId() {
        return context.ordinal();
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long totalMemory() {
        return totalMemory;
    }

    @Override
    public boolean hostAccessible() {
        return memory.hostAccessible();
    }

    @Override
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("compute capability", capability);
        p.put("driver", "CUDA " + CudaDriver.version(driver.version()));
        p.put("allocator", memory.allocator());
        p.put("context", context.isPrimary() ? "primary" : "adopted 0x" + Long.toHexString(context.handle().address()));
        return p;
    }

    // ---- memory -------------------------------------------------------------------------------

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        if (byteSize < 0) {
            throw new IllegalArgumentException("byteSize is negative: " + byteSize);
        }
        if (alignment <= 0 || Long.bitCount(alignment) != 1 || alignment > ALIGNMENT) {
            throw new IllegalArgumentException("alignment must be a power of two up to " + ALIGNMENT + " (what CUDA guarantees), not " + alignment);
        }
        long pointer = context.call(() -> memory.allocate(driver, Math.max(byteSize, 1)));
        allocations.add(pointer);
        MemorySegment segment = MemorySegment.ofAddress(pointer);
        return memory.hostAccessible() ? segment.reinterpret(byteSize) : segment;
    }

    @Override
    public void free(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return;
        }
        if (!allocations.remove(pointer.address())) {
            throw new IllegalArgumentException("0x" + Long.toHexString(pointer.address()) + " was not allocated by "
                    + this + " or was already freed");
        }
        context.run(() -> memory.free(driver, pointer.address()));
    }

    // ---- copies -------------------------------------------------------------------------------

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        long size = source.byteSize();
        if (size == 0) {
            return;
        }
        long to = destination.address() + destinationOffset;
        context.run(() -> driver.check(CudaFunction.cuMemcpyHtoDAsync, h -> (int) h.invokeExact(to, source, size, stream)));
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        long size = destination.byteSize();
        if (size == 0) {
            return;
        }
        long from = source.address() + sourceOffset;
        context.run(() -> driver.check(CudaFunction.cuMemcpyDtoHAsync, h -> (int) h.invokeExact(destination, from, size, stream)));
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        if (byteCount == 0) {
            return;
        }
        long from = source.address() + sourceOffset;
        long to = destination.address() + destinationOffset;
        context.run(() -> driver.check(CudaFunction.cuMemcpyDtoDAsync, h -> (int) h.invokeExact(to, from, byteCount, stream)));
    }

    // ---- streams ------------------------------------------------------------------------------

    @Override
    public MemorySegment createStream() {
        return context.call(() -> driver.handleOut(CudaFunction.cuStreamCreate, (h, out) -> (int) h.invokeExact(out, CU_STREAM_DEFAULT)));
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        context.run(() -> driver.check(CudaFunction.cuStreamSynchronize, h -> (int) h.invokeExact(stream)));
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        if (stream.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("the legacy default stream (NULL) of " + this + " cannot be destroyed");
        }
        context.run(() -> driver.check(CudaFunction.cuStreamDestroy, h -> (int) h.invokeExact(stream)));
    }

    // ---- events -------------------------------------------------------------------------------

    @Override
    public boolean supportsEvents() {
        return true;
    }

    @Override
    public MemorySegment createEvent() {
        return context.call(() -> driver.handleOut(CudaFunction.cuEventCreate, (h, out) -> (int) h.invokeExact(out, CU_EVENT_DISABLE_TIMING)));
    }

    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        context.run(() -> driver.check(CudaFunction.cuEventRecord, h -> (int) h.invokeExact(event, stream)));
    }

    @Override
    public void waitEvent(MemorySegment event) {
        context.run(() -> driver.check(CudaFunction.cuEventSynchronize, h -> (int) h.invokeExact(event)));
    }

    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        context.run(() -> driver.check(CudaFunction.cuStreamWaitEvent, h -> (int) h.invokeExact(stream, event, 0)));
    }

    @Override
    public boolean isEventComplete(MemorySegment event) {
        int result = context.call(() -> driver.result(CudaFunction.cuEventQuery, h -> (int) h.invokeExact(event)));
        if (result == CUDA_SUCCESS) {
            return true;
        }
        if (result == CUDA_ERROR_NOT_READY) {
            return false;
        }
        throw driver.failure(CudaFunction.cuEventQuery, result);
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        context.run(() -> driver.check(CudaFunction.cuEventDestroy, h -> (int) h.invokeExact(event)));
    }

    @Override
    public String toString() {
        return switch (memory) {
            case DEVICE -> "CUDA";
            case HOST -> "CUDA_HOST";
            case MANAGED -> "CUDA_MANAGED";
        } + ":" + context.ordinal() + " " + name;
    }
}
