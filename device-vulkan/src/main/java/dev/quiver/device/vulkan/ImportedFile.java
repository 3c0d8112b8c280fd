package dev.quiver.device.vulkan;

import java.lang.foreign.MemorySegment;

/**
 * A descriptor another process exported, checked before the driver imports it and again after, against what the
 * driver actually mapped. A memory file (a software driver's memory: {@code fcntl(F_GET_SEALS)} succeeds) faults
 * the process that reads a mapped page past its end, and the driver maps what the file's own header says
 * ({@link MemoryFileHeader}), which the exporting process can still rewrite. So:
 * <ul>
 *   <li>{@link #before}: where this device's driver imports memory files by their header (its own exports carry
 *       one, see {@link VulkanDevice}), a header that this driver would read (its UUID) must map no more than
 *       the file holds and hold the stated allocation;</li>
 *   <li>{@link #after}: whatever the header said when the driver read it, the range the driver mapped for the
 *       allocation ({@code vkMapMemory}'s pointer and the allocation's size) must lie in one mapping of that very
 *       file and inside the file's size, which the file's seal against shrinking keeps from dropping; this closes
 *       the window between the first check and the driver's read;</li>
 *   <li>{@link #pin}: what the driver will unmap when the memory is freed, which it reads from the header again
 *       ({@link HeaderPin}).</li>
 * </ul>
 * A dma-buf (a GPU driver's export) is neither: the kernel sized it when it was made and maps no more of it.
 * Immutable; thread-safe; the descriptor stays the caller's.
 *
 * @param what       the descriptor, as refusals name it
 * @param dev        its file's {@code st_dev}
 * @param ino        its file's {@code st_ino}
 * @param memoryFile whether it is a memory file
 */
record ImportedFile(String what, long dev, long ino, boolean memoryFile) {

    /**
     * Checks a descriptor before the driver sees it.
     *
     * @param fd             the descriptor
     * @param allocationSize the size the import states
     * @param headerUuid     the UUID of this driver's memory file headers, or null where its exports carry none
     * @return what the check after the import needs
     * @throws IllegalArgumentException if the descriptor is not open or its header would map past the file
     */
    static ImportedFile before(int fd, long allocationSize, byte[] headerUuid) {
        String what = "the descriptor";
        long[] stat = FileDescriptors.identityAndSize(fd);
        if (stat == null) {
            throw new IllegalArgumentException("file descriptor " + fd + " is not open in this process");
        }
        boolean memoryFile = FileDescriptors.memoryFile(fd);
        if (memoryFile && headerUuid != null) {
            MemoryFileHeader header = MemoryFileHeader.read(fd);
            if (header != null && header.madeBy(headerUuid)) {   // any other file the driver refuses to import
                header.check(stat[2], allocationSize, what);
            }
        }
        return new ImportedFile(what, stat[0], stat[1], memoryFile);
    }

    /**
     * {@return the mapping that holds the imported memory's first byte, or null where there is nothing to check: the
     * descriptor is no memory file, or the memory is not host-visible}
     * @param mapped the allocation's host mapping ({@code vkMapMemory}), or null where it is not host-visible
     */
    FileMapping driverMapping(MemorySegment mapped) {
        return memoryFile && mapped != null ? FileMapping.holding(mapped.address()) : null;
    }

    /**
     * {@return how to free the imported memory: {@link HeaderPin#NONE} where the driver reads no header when it frees
     * it, the pin of its mapping where it does, or null where that cannot be pinned (freeing it is then unsafe)}
     * @param mapping    {@link #driverMapping}'s answer
     * @param pointer    the memory's first byte
     * @param headerUuid the UUID of this driver's memory file headers, or null where its exports carry none
     */
    HeaderPin pin(FileMapping mapping, long pointer, byte[] headerUuid) {
        return !memoryFile || headerUuid == null || mapping == null ? HeaderPin.NONE : HeaderPin.of(mapping.maps(dev, ino) ? mapping : null, pointer);
    }

    /**
     * Checks what the driver mapped for the imported allocation, before anything reads it.
     *
     * @param fd             the descriptor, still open
     * @param mapping        {@link #driverMapping}'s answer; null checks nothing
     * @param pointer        the memory's first byte ({@code vkMapMemory})
     * @param allocationSize the allocation's size
     * @throws IllegalArgumentException if the mapping is not of this file or does not hold all of the allocation
     *                                  inside the file
     */
    void after(int fd, FileMapping mapping, long pointer, long allocationSize) {
        if (mapping == null) {
            return;
        }
        long end = pointer + allocationSize;
        if (!mapping.maps(dev, ino)) {
            throw new IllegalArgumentException("the driver's mapping of " + what + " at 0x" + Long.toHexString(pointer)
                    + " is not a mapping of its memory file: what the allocation reads cannot be bounded");
        }
        long[] stat = FileDescriptors.identityAndSize(fd);
        long fileSize = stat == null ? 0 : stat[2];
        if (Long.compareUnsigned(end, mapping.end()) > 0 || Long.compareUnsigned(mapping.fileOffsetOf(end), fileSize) > 0) {
            throw new IllegalArgumentException("the driver mapped the " + allocationSize + "-byte allocation of " + what
                    + " at bytes " + Long.toUnsignedString(mapping.fileOffsetOf(pointer)) + " to " + Long.toUnsignedString(mapping.fileOffsetOf(end))
                    + " of its memory file, which has " + fileSize + " bytes (the mapping has " + (mapping.end() - mapping.start())
                    + " from file offset " + mapping.fileOffset() + "): reading past the file's end would fault this process");
        }
    }
}
