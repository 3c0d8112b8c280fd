package dev.quiver.device.cpu;

import dev.quiver.spi.host.HostHeap;

import java.lang.foreign.MemorySegment;

/**
 * The C library as the host device's heap: {@code posix_memalign} and {@code free}, and {@code memcpy} for
 * copies from {@value #MEMCPY_THRESHOLD} bytes between native segments, where it beats a JDK copy. Smaller,
 * heap-backed and overlapping copies go through {@link MemorySegment#copy}. Stateless; thread-safe.
 */
final class CLibraryHeap implements HostHeap {
    /** From this size on, copies between native segments call the C library's memcpy. */
    static final long MEMCPY_THRESHOLD = 64 * 1024;
    private static final CLibraryHeap INSTANCE = new CLibraryHeap();

    private CLibraryHeap() {}

    /**
     * @return the heap, with the C library's functions bound
     * @throws UnsatisfiedLinkError if the C library lacks one of them
     */
    static CLibraryHeap bound() {
        LibC.check();
        return INSTANCE;
    }

    @Override
    public String description() {
        return "C library (posix_memalign, memcpy from " + MEMCPY_THRESHOLD / 1024 + " KiB)";
    }

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        return LibC.alignedAlloc(alignment, byteSize).reinterpret(byteSize);
    }

    @Override
    public void free(MemorySegment memory) {
        LibC.free(memory);
    }

    @Override
    public MemorySegment view(MemorySegment address, long byteSize) {
        return address.reinterpret(byteSize);
    }

    @Override
    public void copy(MemorySegment from, MemorySegment to) {
        long bytes = from.byteSize();
        if (bytes >= MEMCPY_THRESHOLD && from.isNative() && to.isNative() && !overlap(from, to)) {
            LibC.memcpy(to, from, bytes);
        } else {
            MemorySegment.copy(from, 0, to, 0, bytes);
        }
    }

    private static boolean overlap(MemorySegment from, MemorySegment to) {
        return from.address() < to.address() + to.byteSize() && to.address() < from.address() + from.byteSize();
    }
}
