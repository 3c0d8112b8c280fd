package dev.quiver.device.vulkan;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Memory files for the tests of imported descriptors, made and written the way a hostile exporter would: sealed
 * against shrinking and growing like Mesa's, written with {@code pwrite} while sealed, and mapped past their end.
 * Every descriptor and mapping is the caller's. Stateless; thread-safe.
 */
final class MemoryFiles {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle MEMFD_CREATE = call("memfd_create", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle FTRUNCATE = call("ftruncate", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle FCNTL = call("fcntl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle PWRITE = call("pwrite", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle PREAD = call("pread", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle MMAP = call("mmap", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MUNMAP = call("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));

    private MemoryFiles() {}

    private static MethodHandle call(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor);
    }

    /** {@return a new memory file of {@code size} bytes sealed against shrinking, growing and sealing, as Mesa seals its own} */
    static int sealed(long size) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) MEMFD_CREATE.invokeExact(arena.allocateFrom("quiver-test-memory"), 3);   // MFD_CLOEXEC | MFD_ALLOW_SEALING
            if (fd < 0 || (int) FTRUNCATE.invokeExact(fd, size) != 0 || (int) FCNTL.invokeExact(fd, 1033, 2 | 4 | 1) != 0) {
                throw new AssertionError("memfd_create, ftruncate or F_ADD_SEALS failed");
            }
            return fd;
        }
    }

    /** Writes {@code bytes} at {@code offset} of the file, leaving its file offset as it was. */
    static void write(int fd, long offset, byte[] bytes) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            if ((long) PWRITE.invokeExact(fd, arena.allocateFrom(JAVA_BYTE, bytes), (long) bytes.length, offset) != bytes.length) {
                throw new AssertionError("pwrite failed");
            }
        }
    }

    /** {@return {@code length} bytes from {@code offset} of the file} */
    static byte[] read(int fd, long offset, int length) throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = arena.allocate(length);
            if ((long) PREAD.invokeExact(fd, bytes, (long) length, offset) != length) {
                throw new AssertionError("pread failed");
            }
            return bytes.toArray(JAVA_BYTE);
        }
    }

    /** {@return {@code size} bytes of the file mapped shared and readable from its start, however large the file is} */
    static MemorySegment map(int fd, long size) throws Throwable {
        MemorySegment mapping = (MemorySegment) MMAP.invokeExact(MemorySegment.NULL, size, 1, 1, fd, 0L);   // PROT_READ, MAP_SHARED
        if (mapping.address() == -1L) {
            throw new AssertionError("mmap failed");
        }
        return mapping.reinterpret(size);
    }

    /** Unmaps what {@link #map} mapped. */
    static void unmap(MemorySegment mapping) throws Throwable {
        if ((int) MUNMAP.invokeExact(mapping, mapping.byteSize()) != 0) {
            throw new AssertionError("munmap failed");
        }
    }

    /**
     * {@return Mesa's 32-byte memory file header with {@code size}, {@code offset} and the 16 bytes of UUID of
     * {@code model}, another header}
     */
    static byte[] header(long size, long offset, byte[] model) {
        MemorySegment header = MemorySegment.ofArray(model.clone());
        header.set(JAVA_LONG.withByteAlignment(1), 0, size);
        header.set(JAVA_LONG.withByteAlignment(1), 8, offset);
        return header.toArray(JAVA_BYTE);
    }
}
