package dev.quiver.spi.host;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.HardwareKind;
import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.MemorySegment;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The host as a device, one per process ({@link #instance()}): pointers are host addresses, {@link #allocate}
 * returns host-accessible segments of the requested size, copies complete before they return, there are no
 * events, and streams are ordering tokens with nothing to wait for. Device id is -1, as the Arrow C Device
 * interface prescribes.
 *
 * <p>Memory and bulk copies come from a {@link HostHeap}: the API installs one made of JDK arenas if nothing
 * better is there, the CPU backend installs the C library's. Each allocation is freed by the heap that made
 * it, so a heap may be installed at any time. Live allocations and streams are tracked, so freeing unknown
 * memory or destroying an unknown stream fails with a clear error instead of corrupting the heap.
 *
 * <p>Arguments are trusted otherwise: callers go through the API, which checks them for every backend.
 *
 * <p><b>Threading.</b> Every method may be called from any thread, concurrently.
 */
public final class HostDevice implements BackendDevice {
    private static final long MIN_ALIGNMENT = 64;
    private static final HostDevice INSTANCE = new HostDevice();

    private final Map<Long, HostHeap> allocations = new ConcurrentHashMap<>();
    private final Set<Long> streams = ConcurrentHashMap.newKeySet();
    private final AtomicLong nextStream = new AtomicLong(1);
    private final HostFacts facts = new HostFacts();
    private volatile HostHeap heap;

    private HostDevice() {}

    /** @return the host device of this process */
    public static HostDevice instance() {
        return INSTANCE;
    }

    /**
     * Makes {@code heap} serve every later allocation and copy. Memory allocated before stays with the heap
     * that made it.
     *
     * @param heap the heap to use from now on
     */
    public synchronized void useHeap(HostHeap heap) {
        this.heap = Objects.requireNonNull(heap, "heap");
    }

    /**
     * Installs {@code heap} unless a heap is installed already.
     *
     * @param heap the heap to fall back on
     */
    public synchronized void useHeapIfNone(HostHeap heap) {
        if (this.heap == null) {
            useHeap(heap);
        }
    }

    @Override
    public int deviceType() {
        return DeviceTypeCodes.CPU;
    }

    @Override
    public long deviceId() {
        return -1;
    }

    @Override
    public String name() {
        return facts.cpuName();
    }

    @Override
    public long totalMemory() {
        return facts.totalMemory();
    }

    /** @return {@link HardwareKind#CPU}: the host's processors */
    @Override
    public HardwareKind hardwareKind() {
        return HardwareKind.CPU;
    }

    /** @return the processors available to the JVM */
    @Override
    public int computeUnits() {
        return Runtime.getRuntime().availableProcessors();
    }

    @Override
    public boolean hostAccessible() {
        return true;
    }

    @Override
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        p.put("arch", System.getProperty("os.arch"));
        p.put("alignment", MIN_ALIGNMENT + " B");
        p.put("heap", heap().description());
        return p;
    }

    // ---- memory -------------------------------------------------------------------------------

    /** Allocates at least one byte, so that size 0 still yields a pointer {@link #free} accepts. */
    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        HostHeap from = heap();
        MemorySegment memory = from.allocate(Math.max(byteSize, 1), Math.max(alignment, MIN_ALIGNMENT));
        allocations.put(memory.address(), from);
        return memory.asSlice(0, byteSize);
    }

    @Override
    public void free(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return;
        }
        HostHeap owner = allocations.remove(pointer.address());
        if (owner == null) {
            throw new IllegalArgumentException("0x" + Long.toHexString(pointer.address())
                    + " was not allocated by the host device or was already freed");
        }
        owner.free(pointer);
    }

    // ---- copies -------------------------------------------------------------------------------

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        checkStream(stream);
        long bytes = source.byteSize();
        HostHeap with = heap();
        with.copy(source, span(with, destination, destinationOffset, bytes));
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        checkStream(stream);
        HostHeap with = heap();
        with.copy(span(with, source, sourceOffset, destination.byteSize()), destination);
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        checkStream(stream);
        HostHeap with = heap();
        with.copy(span(with, source, sourceOffset, byteCount), span(with, destination, destinationOffset, byteCount));
    }

    /** @return bytes [offset, offset + bytes) from a pointer: a slice where it is sized for them, else a view */
    private static MemorySegment span(HostHeap heap, MemorySegment pointer, long offset, long bytes) {
        MemorySegment sized = pointer.byteSize() >= offset + bytes ? pointer : heap.view(pointer, offset + bytes);
        return sized.asSlice(offset, bytes);
    }

    // ---- streams ------------------------------------------------------------------------------

    @Override
    public MemorySegment createStream() {
        long token = nextStream.getAndIncrement();
        streams.add(token);
        return MemorySegment.ofAddress(token);
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        checkStream(stream);
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        if (stream.equals(MemorySegment.NULL) || !streams.remove(stream.address())) {
            throw notAStream(stream);
        }
    }

    private void checkStream(MemorySegment stream) {
        if (!stream.equals(MemorySegment.NULL) && !streams.contains(stream.address())) {
            throw notAStream(stream);
        }
    }

    private static IllegalArgumentException notAStream(MemorySegment stream) {
        return new IllegalArgumentException("not a live stream of the host device: 0x" + Long.toHexString(stream.address()));
    }

    private HostHeap heap() {
        HostHeap current = heap;
        if (current == null) {
            throw new IllegalStateException("the host device has no heap: the API or the CPU backend installs one before use");
        }
        return current;
    }

    @Override
    public String toString() {
        return "CPU:-1 " + name();
    }
}
