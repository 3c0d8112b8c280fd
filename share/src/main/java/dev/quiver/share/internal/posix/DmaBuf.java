package dev.quiver.share.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Telling a Linux dma-buf descriptor (device memory a driver exported, whose size the kernel fixes) from other
 * files, by its file system ({@code fstatfs}). Stateless; any thread.
 */
public final class DmaBuf {
    private DmaBuf() {}

    /**
     * {@return whether {@code fd} is a dma-buf: its file system's {@code f_type} is {@code DMA_BUF_MAGIC}; false
     * for any other file and for a descriptor that is not open}
     * @param fd a descriptor
     */
    public static boolean is(int fd) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment statfs = arena.allocate(Libc.STATFS_SIZE, 8);
            return Libc.fstatfs(Libc.capture(arena), fd, statfs) == 0 && statfs.get(JAVA_LONG, Libc.STATFS_F_TYPE) == Libc.DMA_BUF_MAGIC;
        }
    }
}
