package dev.quiver.internal.abi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Asks the kernel, without touching the memory, whether every page of a range is mapped right now
 * ({@code mincore(2)}, which fails with {@code ENOMEM} on a page that is not). It catches what a cached map
 * cannot: memory unmapped since the map was read. It cannot tell readable pages from {@code PROT_NONE} ones;
 * the map does that. Stateless apart from one scratch vector that the kernel writes and nothing reads, so
 * threads share it; safe from any thread.
 */
final class MappedPages {
    /** Pages asked about per call: the scratch vector holds one byte per page. */
    private static final int PAGES_PER_CALL = 4096;
    private static final Optional<Handles> HANDLES = Handles.bind();
    private static final long PAGE_SIZE = HANDLES.map(Handles::pageSize).orElse(4096L);
    /**
     * The address of the vector of {@link #PAGES_PER_CALL} bytes {@code mincore} fills, one per page, for the
     * life of the process. Only the call's result is used, never the vector, so concurrent calls may all
     * write into this one.
     */
    private static final long SCRATCH = Arena.global().allocate(PAGES_PER_CALL).address();

    private MappedPages() {}

    private record Handles(MethodHandle mincore, long pageSize) {
        static Optional<Handles> bind() {
            try {
                Linker linker = Linker.nativeLinker();
                Optional<MemorySegment> mincore = linker.defaultLookup().find("mincore");
                Optional<MemorySegment> pageSize = linker.defaultLookup().find("getpagesize");
                if (mincore.isEmpty() || pageSize.isEmpty()) {
                    return Optional.empty();
                }
                int size = (int) linker.downcallHandle(pageSize.get(), FunctionDescriptor.of(JAVA_INT)).invokeExact();
                // a short system call that never blocks: critical, and addresses as integers, so that a check
                // makes no thread-state transition and no segment
                return Optional.of(new Handles(linker.downcallHandle(mincore.get(),
                        FunctionDescriptor.of(JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_LONG), Linker.Option.critical(false)), size));
            } catch (Throwable e) {
                return Optional.empty();
            }
        }
    }

    /** {@return the page size the checks round to: 4096 where this system cannot tell} */
    static long pageSize() {
        return PAGE_SIZE;
    }

    /**
     * @param address first byte
     * @param bytes   how many bytes, more than 0
     * @return false if a page of {@code [address, address + bytes)} is not mapped now; true if every page is,
     *         or if this system cannot tell
     */
    static boolean allMapped(long address, long bytes) {
        if (HANDLES.isEmpty()) {
            return true;
        }
        Handles h = HANDLES.get();
        long page = h.pageSize();
        long start = address & -page;
        long end = address + bytes;
        if (end < address) {
            return false;
        }
        long chunk = page * PAGES_PER_CALL;
        for (long at = start; Long.compareUnsigned(at, end) < 0; at += chunk) {
            long length = Math.min(chunk, end - at);
            try {
                if ((int) h.mincore().invokeExact(at, length, SCRATCH) != 0) {
                    return false;
                }
            } catch (Throwable e) {
                return false;
            }
        }
        return true;
    }
}
