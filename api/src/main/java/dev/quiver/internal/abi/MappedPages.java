package dev.quiver.internal.abi;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Asks the kernel, without touching the memory, whether every page of a range is mapped right now
 * ({@code mincore(2)}, which fails with {@code ENOMEM} on a page that is not). It catches what a cached map
 * cannot: memory unmapped since the map was read. It cannot tell readable pages from {@code PROT_NONE} ones;
 * the map does that. Stateless apart from a per-thread scratch vector; safe from any thread.
 */
final class MappedPages {
    /** Pages asked about per call: the scratch vector holds one byte per page. */
    private static final int PAGES_PER_CALL = 4096;
    private static final Optional<Handles> HANDLES = Handles.bind();
    private static final ThreadLocal<MemorySegment> SCRATCH =
            ThreadLocal.withInitial(() -> Arena.global().allocate(PAGES_PER_CALL));

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
                return Optional.of(new Handles(linker.downcallHandle(mincore.get(),
                        FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS)), size));
            } catch (Throwable e) {
                return Optional.empty();
            }
        }
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
        MemorySegment vector = SCRATCH.get();
        long chunk = page * PAGES_PER_CALL;
        for (long at = start; Long.compareUnsigned(at, end) < 0; at += chunk) {
            long length = Math.min(chunk, end - at);
            try {
                if ((int) h.mincore().invokeExact(MemorySegment.ofAddress(at), length, vector) != 0) {
                    return false;
                }
            } catch (Throwable e) {
                return false;
            }
        }
        return true;
    }
}
