package dev.quiver.device.cpu;

import dev.quiver.device.ffm.HostCopy;
import dev.quiver.spi.host.HostHeap;

import java.lang.foreign.MemorySegment;

/**
 * The C library as the host device's heap: {@code posix_memalign} and {@code free}; copies go through
 * {@link HostCopy}, which calls the C library's {@code memcpy} from {@value HostCopy#MEMCPY_THRESHOLD} bytes
 * between native segments, where it beats a JDK copy, and {@link MemorySegment#copy} otherwise. Stateless;
 * thread-safe.
 */
final class CLibraryHeap implements HostHeap {
    private static final CLibraryHeap INSTANCE = new CLibraryHeap();

    private CLibraryHeap() {}

    /**
     * @return the heap, with the C library's functions bound
     * @throws UnsatisfiedLinkError if the C library lacks one of them
     */
    static CLibraryHeap bound() {
        LibC.check();
        HostCopy.bind();
        return INSTANCE;
    }

    @Override
    public String description() {
        return "C library (posix_memalign, memcpy from " + HostCopy.MEMCPY_THRESHOLD / 1024 + " KiB)";
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
        HostCopy.copy(from, to);
    }
}
