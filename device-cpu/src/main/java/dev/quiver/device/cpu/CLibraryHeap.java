package dev.quiver.device.cpu;

import dev.quiver.device.ffm.HostCopy;
import dev.quiver.spi.host.HostHeap;

import java.lang.foreign.MemorySegment;

/**
 * The C library as the host device's heap: {@code posix_memalign} and {@code free} (large allocations on
 * transparent huge pages, see {@link #HUGE_PAGES_FROM}); copies go through
 * {@link HostCopy}, which calls the C library's {@code memcpy} from {@value HostCopy#MEMCPY_THRESHOLD} bytes
 * between native segments, where it beats a JDK copy, and {@link MemorySegment#copy} otherwise. Stateless;
 * thread-safe.
 */
final class CLibraryHeap implements HostHeap {
    /**
     * Allocations from this size on are aligned to 2 MiB and advised onto transparent huge pages on Linux, unless
     * {@code -Dquiver.cpu.hugePages=false}: fresh memory of that size is otherwise touched a 4 KiB page fault at a
     * time, which costs more than the copy that fills it (a received Flight batch, a host copy of a device array).
     */
    static final long HUGE_PAGES_FROM = 4L << 20;
    private static final long HUGE_PAGE = 2L << 20;
    private static final boolean HUGE_PAGES = System.getProperty("os.name", "").startsWith("Linux")
            && !"false".equals(System.getProperty("quiver.cpu.hugePages"));
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
        return "C library (posix_memalign, transparent huge pages from " + (HUGE_PAGES_FROM >> 20) + " MiB, memcpy from "
                + HostCopy.MEMCPY_THRESHOLD / 1024 + " KiB)";
    }

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        if (HUGE_PAGES && byteSize >= HUGE_PAGES_FROM) {
            MemorySegment memory = LibC.alignedAlloc(Math.max(alignment, HUGE_PAGE), byteSize).reinterpret(byteSize);
            LibC.adviseHugePages(memory, byteSize);
            return memory;
        }
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
