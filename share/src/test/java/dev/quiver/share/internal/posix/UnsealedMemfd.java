package dev.quiver.share.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/** A memory file without seals, as a careless or hostile owner might send one. For tests. */
public final class UnsealedMemfd {
    private UnsealedMemfd() {}

    /** {@return the descriptor of a new unsealed memory file of {@code size} bytes, owned by the caller} @param size bytes */
    public static int create(long size) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            int fd = Libc.memfdCreate(errno, arena.allocateFrom("unsealed"), Libc.MFD_CLOEXEC);
            if (fd < 0 || Libc.ftruncate(errno, fd, size) < 0) {
                throw new SystemCallException("memfd_create", Libc.errno(errno), "unsealed");
            }
            return fd;
        }
    }
}
