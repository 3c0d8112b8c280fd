package dev.quiver.device.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.system.MemoryUtil;
import org.lwjgl.system.linux.FCNTL;
import org.lwjgl.system.linux.Stat;
import org.lwjgl.system.linux.UNISTD;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;

/**
 * The POSIX calls on file descriptors that inter-process memory needs, through LWJGL's C library bindings:
 * duplicating a descriptor the caller keeps, telling which file one names, and closing one Quiver owns. Stateless; thread-safe.
 */
final class FileDescriptors {
    private FileDescriptors() {}

    /**
     * Duplicates a descriptor ({@code fcntl(F_DUPFD_CLOEXEC)}), so that the duplicate can be handed to a call
     * that takes it over while the caller keeps its own.
     *
     * @param fd an open file descriptor of this process
     * @return the duplicate, owned by the caller
     * @throws IllegalArgumentException if {@code fd} is not an open descriptor, naming it and {@code errno}
     */
    static int duplicate(int fd) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            IntBuffer errno = stack.mallocInt(1);
            int copy = FCNTL.fcntli(errno, fd, FCNTL.F_DUPFD_CLOEXEC, 0);
            if (copy < 0) {
                throw new IllegalArgumentException("file descriptor " + fd + " is not open in this process (fcntl errno "
                        + errno.get(0) + ")");
            }
            return copy;
        }
    }

    /**
     * {@return the file a descriptor names, as its device and inode numbers ({@code fstat}'s {@code st_dev} and
     * {@code st_ino}), or null if the descriptor is not open}
     * @param fd a descriptor number
     */
    static long[] identity(int fd) {
        long[] stat = identityAndSize(fd);
        return stat == null ? null : new long[] {stat[0], stat[1]};
    }

    /**
     * {@return the file a descriptor names and its size, as {@code {st_dev, st_ino, st_size}} of {@code fstat}, or
     * null if the descriptor is not open}
     * @param fd a descriptor number
     */
    static long[] identityAndSize(int fd) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            ByteBuffer stat = stack.calloc(STAT_BYTES);
            if (Stat.fstat(stack.mallocInt(1), fd, MemoryUtil.memAddress(stat)) != 0) {
                return null;
            }
            return new long[] {stat.getLong(0), stat.getLong(8), stat.getLong(ST_SIZE)};
        }
    }

    /**
     * {@return whether a descriptor names a memory file that takes seals ({@code fcntl(F_GET_SEALS)} succeeds), such
     * as the files Mesa's software drivers export their memory as}
     * @param fd a descriptor number
     */
    static boolean memoryFile(int fd) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            return FCNTL.fcntli(stack.mallocInt(1), fd, F_GET_SEALS, 0) >= 0;
        }
    }

    /** {@code F_GET_SEALS} of Linux's {@code fcntl.h}. */
    private static final int F_GET_SEALS = 1034;
    /** Offset of {@code st_size} in {@code struct stat} on x86-64 and AArch64 alike. */
    private static final int ST_SIZE = 48;

    /** Bytes of {@code struct stat} on Linux's 64-bit ABIs (144 on x86-64, 128 on AArch64), rounded up. */
    private static final int STAT_BYTES = 256;

    /**
     * Closes a descriptor Quiver owns; does nothing for a negative one.
     *
     * @param fd the descriptor, or -1
     */
    static void close(int fd) {
        if (fd < 0) {
            return;
        }
        try (MemoryStack stack = MemoryStack.stackPush()) {
            UNISTD.close(stack.mallocInt(1), fd);
        }
    }
}
