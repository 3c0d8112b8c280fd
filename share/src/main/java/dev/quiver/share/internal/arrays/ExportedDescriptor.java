package dev.quiver.share.internal.arrays;

import dev.quiver.share.internal.posix.DmaBuf;
import dev.quiver.share.internal.posix.Memfd;
import dev.quiver.share.internal.posix.SystemCallException;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ProtocolException;

/**
 * The receiver's checks of a device allocation's file descriptor (a {@code VULKAN_FD} handle) before its
 * driver opens it (docs/SHARING.md, "Device IPC handles"). The file must be one whose size cannot drop under a
 * mapping: a memory file sealed against shrinking (a software driver's memory, as lavapipe's) or a dma-buf (a
 * GPU driver's export, whose size the kernel fixes); any other file (a regular file the owner could truncate, a
 * socket) is refused, since a file that shrank under the driver's mapping would fault this process instead of
 * giving an error. And its size ({@code fstat}) must be at least the size the handle states, since the driver
 * maps the size it is given. What a driver reads inside the file (lavapipe's header, by which it maps the file) the
 * backend checks before its import and against what the driver mapped after it (the Vulkan backend's
 * {@code ImportedFile}); its refusal reaches the owner as {@code PROTOCOL}. Stateless; the descriptor stays the caller's.
 */
final class ExportedDescriptor {
    private ExportedDescriptor() {}

    /**
     * Checks one descriptor against its handle's stated size.
     *
     * @param fd     the descriptor that came with the handle
     * @param stated the handle's {@code size}
     * @param at     the handle, as refusals name it
     * @throws ProtocolException ({@link ErrorCode#PROTOCOL}) naming the handle, the stated size and the file's
     */
    static void check(int fd, long stated, String at) {
        int seals = Memfd.seals(fd);
        if (seals >= 0 && (seals & Memfd.REQUIRED_SEALS) != Memfd.REQUIRED_SEALS) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at + ": the descriptor is a memory file not sealed against shrinking "
                    + "(F_SEAL_SHRINK); the device's mapping of it would let the owner fault this process");
        }
        if (seals < 0 && !DmaBuf.is(fd)) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at + ": the descriptor is neither a memory file sealed against "
                    + "shrinking nor a dma-buf; the device's mapping of another file would let the owner fault this process");
        }
        long size;
        try {
            size = Memfd.size(fd);
        } catch (SystemCallException e) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at + ": the descriptor's size cannot be read: " + e.getMessage());
        }
        if (size <= 0) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at + " says " + Long.toUnsignedString(stated)
                    + " bytes; the file behind its descriptor reports no size, so that size cannot be checked");
        }
        if (Long.compareUnsigned(stated, size) > 0) {
            throw new ProtocolException(ErrorCode.PROTOCOL, at + " says " + Long.toUnsignedString(stated)
                    + " bytes; the file behind its descriptor has " + size);
        }
    }
}
