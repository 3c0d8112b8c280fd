package dev.quiver.device.vulkan;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.Arrays;
import java.util.HexFormat;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The header at the start of a memory file that Mesa's software drivers (lavapipe, on llvmpipe) export their
 * memory as ({@code struct memory_header} of Mesa's {@code os_memory_fd.c}): {@code size_t size}, the bytes the
 * importing driver maps from the start of the file; {@code size_t offset}, where the memory's bytes begin in that
 * mapping; {@code uint8_t uuid[16]}, the first bytes of the SHA-1 of the driver's build id, which its import
 * compares with its own. The import maps {@code size} bytes whatever the file holds, so a header that says more
 * than the file has makes the driver hand out pages past the end of the file, whose reads fault the process.
 * Immutable; thread-safe.
 *
 * @param size   the mapped size, from the start of the file
 * @param offset the start of the memory's bytes in that mapping
 * @param uuid   the driver's 16 bytes
 */
record MemoryFileHeader(long size, long offset, byte[] uuid) {
    /** Bytes of the header on Linux's 64-bit ABIs: two {@code size_t} and 16 bytes. */
    static final int BYTES = 32;

    private static final MethodHandle PREAD = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("pread").orElseThrow(),
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));

    /** Copies the UUID. */
    MemoryFileHeader {
        uuid = uuid.clone();
    }

    /** {@return a copy of the driver's 16 bytes} */
    @Override
    public byte[] uuid() {
        return uuid.clone();
    }

    /**
     * Reads the header with {@code pread} at offset 0, which leaves the descriptor's file offset as it was.
     *
     * @param fd a descriptor of a memory file
     * @return the header, or null if the file holds fewer than {@value #BYTES} bytes or cannot be read
     */
    static MemoryFileHeader read(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = arena.allocate(BYTES, 8);
            long read;
            try {
                read = (long) PREAD.invokeExact(fd, bytes, (long) BYTES, 0L);
            } catch (Throwable t) {
                throw new IllegalStateException("pread of descriptor " + fd + " failed", t);
            }
            if (read != BYTES) {
                return null;
            }
            return new MemoryFileHeader(bytes.get(JAVA_LONG, 0), bytes.get(JAVA_LONG, 8), bytes.asSlice(16, 16).toArray(JAVA_BYTE));
        }
    }

    /**
     * {@return the UUID of a driver's memory file headers, read from a descriptor it exported of its own memory; empty
     * where that export is no memory file with such a header (a GPU driver's dma-buf)}
     * @param fd a descriptor the driver exported ({@code vkGetMemoryFdKHR}) of memory of this process
     */
    static byte[] uuidOfOwnExport(int fd) {
        long[] stat = FileDescriptors.identityAndSize(fd);
        MemoryFileHeader header = stat != null && FileDescriptors.memoryFile(fd) ? read(fd) : null;
        boolean ours = header != null && header.size == stat[2] && Long.compareUnsigned(header.offset, BYTES) >= 0
                && Long.compareUnsigned(header.offset, header.size) <= 0;
        return ours ? header.uuid() : new byte[0];
    }

    /** {@return whether this header carries {@code driver}'s UUID, so that the driver would import the file by it} */
    boolean madeBy(byte[] driver) {
        return Arrays.equals(uuid, driver);
    }

    /**
     * Checks that the driver's mapping of the file by this header lies inside the file and holds the allocation.
     *
     * @param fileSize       the file's size ({@code fstat})
     * @param allocationSize the size the import states
     * @param what           the descriptor, as a refusal names it
     * @throws IllegalArgumentException naming the header's sizes and the file's
     */
    void check(long fileSize, long allocationSize, String what) {
        String says = what + "'s memory file header says " + Long.toUnsignedString(size) + " bytes with the memory at offset "
                + Long.toUnsignedString(offset);
        if (Long.compareUnsigned(size, fileSize) > 0) {
            throw new IllegalArgumentException(says + ", but the file has " + fileSize + " bytes: the driver would map pages past "
                    + "its end, whose reads fault this process");
        }
        if (Long.compareUnsigned(offset, size) > 0 || Long.compareUnsigned(size - offset, allocationSize) < 0) {
            throw new IllegalArgumentException(says + ", which leaves " + (Long.compareUnsigned(offset, size) > 0 ? "no"
                    : Long.toUnsignedString(size - offset)) + " bytes for an allocation of " + allocationSize + " bytes (the file has "
                    + fileSize + ")");
        }
    }

    @Override
    public String toString() {
        return "memory file header (size " + Long.toUnsignedString(size) + ", offset " + Long.toUnsignedString(offset) + ", uuid "
                + HexFormat.of().formatHex(uuid) + ")";
    }
}
