package dev.quiver.share.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Anonymous shared memory files ({@code memfd_create}): creating one sealed against shrinking and growing,
 * reading its size ({@code fstat}) and seals, mapping it, and closing descriptors. A descriptor is an
 * {@code int} owned by whoever holds it, who closes it exactly once with {@link #close(int)}. Stateless; any
 * thread.
 */
public final class Memfd {
    /** The seals every region Quiver shares carries: a peer that maps it can never see it shrink under it. */
    public static final int REQUIRED_SEALS = Libc.F_SEAL_SHRINK;

    private Memfd() {}

    /**
     * Creates a memory file of {@code size} bytes, sealed against shrinking, growing and further sealing.
     *
     * @param name a name for {@code /proc/<pid>/fd} listings
     * @param size bytes, more than zero
     * @return the descriptor, owned by the caller
     * @throws SystemCallException if the kernel refuses
     */
    public static int create(String name, long size) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            int fd = Libc.memfdCreate(errno, arena.allocateFrom(name), Libc.MFD_CLOEXEC | Libc.MFD_ALLOW_SEALING);
            if (fd < 0) {
                throw new SystemCallException("memfd_create", Libc.errno(errno), name);
            }
            if (Libc.ftruncate(errno, fd, size) < 0) {
                int cause = Libc.errno(errno);
                Libc.close(errno, fd);
                throw new SystemCallException("ftruncate", cause, size + " bytes");
            }
            if (Libc.fcntl(errno, fd, Libc.F_ADD_SEALS, Libc.F_SEAL_SHRINK | Libc.F_SEAL_GROW | Libc.F_SEAL_SEAL) < 0) {
                int cause = Libc.errno(errno);
                Libc.close(errno, fd);
                throw new SystemCallException("fcntl(F_ADD_SEALS)", cause, name);
            }
            return fd;
        }
    }

    /**
     * {@return the size in bytes of the file behind {@code fd}, from {@code fstat}}
     * @throws SystemCallException if {@code fd} is not an open descriptor
     */
    public static long size(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            MemorySegment stat = arena.allocate(Libc.STAT_SIZE, 8);
            if (Libc.fstat(errno, fd, stat) < 0) {
                throw new SystemCallException("fstat", Libc.errno(errno), "descriptor " + fd);
            }
            return stat.get(JAVA_LONG, Libc.STAT_ST_SIZE);
        }
    }

    /**
     * {@return the seals of {@code fd} ({@code F_GET_SEALS}), or -1 if it is not a memory file that takes seals}
     */
    public static int seals(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            return Libc.fcntl(Libc.capture(arena), fd, Libc.F_GET_SEALS, 0);
        }
    }

    /**
     * Maps the whole file shared, readable and writable: the owner's view, where arrays are built.
     *
     * @param fd   the descriptor
     * @param size the file's size
     * @return the mapping, to be passed to {@link #unmap} exactly once
     */
    public static MemorySegment mapShared(int fd, long size) {
        return map(fd, size, Libc.MAP_SHARED);
    }

    /**
     * Bytes of inaccessible address space after every private mapping ({@link #mapPrivate}): 64 KiB, a multiple of
     * every page size Linux runs with (4, 16 and 64 KiB).
     */
    public static final long GUARD_BYTES = 64 << 10;

    /**
     * Maps the whole file private, readable and writable (copy on write): the receiver's view, which reads the
     * owner's pages with no copy and whose writes, if any, never reach the owner. At least {@link #GUARD_BYTES}
     * of address space that cannot be read ({@code PROT_NONE}) follow the mapping, so a read that runs past the
     * file's last page faults there instead of reading whatever this process mapped next to it (another owner's
     * region, the JVM's own memory), and a reader bounded by the readable mappings stops at the region's end.
     *
     * <p>The guard is always on: it costs one more {@code mmap} per region (the reservation, which takes no
     * memory: {@code MAP_NORESERVE}, never accessible) and 64 KiB of address space, and regions are mapped once
     * and reused by later batches. A receiver bounds every read by what the owner's batch says and by what it
     * copied when it checked the batch; the guard makes a missing bound fail closed (a fault) rather than hand this
     * process's unrelated memory over as the owner's values, and lets the concurrent-mutation test observe that
     * no read leaves a mapping.
     *
     * @param fd   the descriptor
     * @param size the file's size
     * @return the mapping, to be passed to {@link #unmapPrivate} exactly once
     */
    public static MemorySegment mapPrivate(int fd, long size) {
        long span = guardedSpan(size);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            MemorySegment reserved = Libc.mmap(errno, span, Libc.PROT_NONE, Libc.MAP_PRIVATE | Libc.MAP_ANONYMOUS | Libc.MAP_NORESERVE, -1);
            if (reserved.address() == -1L) {
                throw new SystemCallException("mmap", Libc.errno(errno), span + " bytes of address space for " + size + " bytes of descriptor " + fd);
            }
            MemorySegment mapping = Libc.mmap(errno, reserved, size, Libc.PROT_READ | Libc.PROT_WRITE, Libc.MAP_PRIVATE | Libc.MAP_FIXED, fd);
            if (mapping.address() == -1L) {
                int cause = Libc.errno(errno);
                Libc.munmap(errno, reserved);
                throw new SystemCallException("mmap", cause, size + " bytes of descriptor " + fd);
            }
            return mapping;
        }
    }

    /**
     * Unmaps what {@link #mapPrivate} returned, with its guard.
     *
     * @param mapping the mapping; not used afterwards
     */
    public static void unmapPrivate(MemorySegment mapping) {
        unmap(MemorySegment.ofAddress(mapping.address()).reinterpret(guardedSpan(mapping.byteSize())));
    }

    /** {@return the address space a private mapping of {@code size} bytes takes with its guard} */
    private static long guardedSpan(long size) {
        return Math.addExact((size + GUARD_BYTES - 1) & -GUARD_BYTES, GUARD_BYTES);
    }

    private static MemorySegment map(int fd, long size, int flags) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            MemorySegment mapping = Libc.mmap(errno, size, Libc.PROT_READ | Libc.PROT_WRITE, flags, fd);
            if (mapping.address() == -1L) {
                throw new SystemCallException("mmap", Libc.errno(errno), size + " bytes of descriptor " + fd);
            }
            return mapping;
        }
    }

    /**
     * Unmaps what {@link #mapShared} returned.
     *
     * @param mapping the mapping; not used afterwards
     */
    public static void unmap(MemorySegment mapping) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            if (Libc.munmap(errno, mapping) < 0) {
                throw new SystemCallException("munmap", Libc.errno(errno), mapping.byteSize() + " bytes");
            }
        }
    }

    /**
     * Closes a descriptor; a failure is ignored, as the descriptor is gone either way on Linux.
     *
     * @param fd the descriptor, not used afterwards
     */
    public static void close(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            Libc.close(Libc.capture(arena), fd);
        }
    }
}
