package dev.quiver.device.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.linux.MMAN;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * What Mesa's software driver unmaps when it frees memory imported from a memory file, pinned to what it mapped at
 * import. Mesa's free ({@code os_free_fd}) reads again, from the shared mapping, the copy of the data's offset just
 * before the data and the header's {@code size}, and unmaps that: a process that still writes the file could make
 * it read past the file's end (a fault) or unmap any memory of this process. So just before the memory is freed
 * its mapping is replaced by private anonymous pages of the same place and size ({@code mmap} with
 * {@code MAP_FIXED}), on which the header and the offset's copy say exactly what was mapped; the exporter's writes
 * no longer reach them, and the free unmaps the driver's mapping and nothing else. Nothing reads the memory then:
 * its users have finished. Immutable; {@link #freeze} runs once, just before {@code vkFreeMemory}.
 *
 * @param start  the first address of the driver's mapping of the file, which begins at the file's start
 * @param length its length
 * @param data   the offset in it of the memory's first byte, the pointer {@code vkMapMemory} returned
 */
record HeaderPin(long start, long length, long data) {
    /** A pin of nothing: memory whose driver reads no header when it frees it. */
    static final HeaderPin NONE = new HeaderPin(0, 0, 0);

    /**
     * {@return the pin of the driver's mapping that holds {@code pointer}, or null where there is no such mapping of
     * the file from its start with room for the offset's copy before {@code pointer}: freeing it cannot be made safe}
     * @param mapping the mapping of the imported file that holds the pointer, or null
     * @param pointer the memory's first byte ({@code vkMapMemory})
     */
    static HeaderPin of(FileMapping mapping, long pointer) {
        if (mapping == null || mapping.fileOffset() != 0 || pointer - mapping.start() < Long.BYTES) {
            return null;
        }
        return new HeaderPin(mapping.start(), mapping.end() - mapping.start(), pointer - mapping.start());
    }

    /**
     * Replaces the driver's mapping by private pages that say what it mapped.
     *
     * @throws IllegalStateException if the kernel refuses the mapping (the driver's mapping is then as it was)
     */
    void freeze() {
        if (length == 0) {
            return;
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            long mapped = MMAN.mmap(stack.mallocInt(1), start, length, MMAN.PROT_READ | MMAN.PROT_WRITE,
                    MMAN.MAP_FIXED | MMAN.MAP_PRIVATE | MMAN.MAP_ANONYMOUS | MMAN.MAP_NORESERVE, -1, 0);
            if (mapped != start) {
                throw new IllegalStateException("cannot replace the imported mapping at 0x" + Long.toHexString(start) + " ("
                        + length + " bytes) before it is freed");
            }
        }
        MemorySegment pages = MemorySegment.ofAddress(start).reinterpret(length);
        pages.set(JAVA_LONG_UNALIGNED, 0, length);                   // struct memory_header: size
        pages.set(JAVA_LONG_UNALIGNED, 8, data);                     // offset
        pages.set(JAVA_LONG_UNALIGNED, data - Long.BYTES, data);     // the offset's copy before the data, which the free reads first
    }
}
