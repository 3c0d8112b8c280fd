package dev.quiver.share.internal.posix;

import java.lang.foreign.MemorySegment;

/** Sized views of host addresses read from C structs (an {@code ArrowArray}'s buffers and children). Stateless. */
public final class HostPointers {
    private HostPointers() {}

    /**
     * Views {@code size} bytes at a host address, for copying out of or walking.
     *
     * @param address the host address, not 0
     * @param size    bytes
     * @return the view
     */
    public static MemorySegment bytes(long address, long size) {
        return Libc.sized(MemorySegment.ofAddress(address), size);
    }
}
