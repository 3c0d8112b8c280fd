package dev.quiver.spi;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * Device memory exported for another process: the driver's handle of the whole allocation, and where the
 * exported pointer lies in it. Driver IPC handles name the start of an allocation, so a pointer inside one
 * (a pool's sub-allocation, a slice) travels as the allocation's handle plus {@link #offset()}. Immutable;
 * the bytes are copied in and out.
 *
 * <p>A handle is not a reference: it keeps nothing alive. The exporting process keeps the allocation until
 * every peer has closed what it opened.
 *
 * @param mechanism      the driver mechanism that made the handle, never {@link IpcMechanism#NONE}
 * @param handle         the driver's opaque handle bytes, {@link IpcMechanism#handleBytes()} long; empty for
 *                       mechanisms whose handle is a file descriptor
 * @param fileDescriptor the file descriptor, owned by the caller, or -1 for mechanisms with opaque bytes
 * @param offset         the exported pointer's byte offset from the start of its allocation, at least 0
 * @param allocationSize the allocation's size in bytes as the driver reports it, or -1 where it does not
 */
public record IpcMemoryHandle(IpcMechanism mechanism, byte[] handle, int fileDescriptor, long offset, long allocationSize) {

    /**
     * Checks the parts against the mechanism and copies the bytes.
     *
     * @throws IllegalArgumentException if the mechanism is NONE, the handle's length is not the mechanism's,
     *                                  the offset is negative, or it lies past the allocation
     */
    public IpcMemoryHandle {
        if (mechanism == null || mechanism == IpcMechanism.NONE) {
            throw new IllegalArgumentException("an IPC memory handle needs a mechanism, not " + mechanism);
        }
        handle = HandleBytes.copyOf(mechanism, handle, mechanism.handleBytes(), "handles");
        if ((mechanism.handleBytes() == 0) != (fileDescriptor >= 0)) {
            throw new IllegalArgumentException(mechanism + (mechanism.handleBytes() == 0
                    ? " handles are a file descriptor, not " + fileDescriptor : " handles carry no file descriptor"));
        }
        if (offset < 0 || (allocationSize >= 0 && offset >= Math.max(allocationSize, 1))) {
            throw new IllegalArgumentException("offset " + offset + " lies outside the allocation of " + allocationSize + " bytes");
        }
    }

    /** {@return a copy of the driver's handle bytes} */
    @Override
    public byte[] handle() {
        return handle.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof IpcMemoryHandle h && h.mechanism == mechanism && Arrays.equals(h.handle, handle)
                && h.fileDescriptor == fileDescriptor && h.offset == offset && h.allocationSize == allocationSize;
    }

    @Override
    public int hashCode() {
        return (mechanism.hashCode() * 31 + Arrays.hashCode(handle)) * 31 + Long.hashCode(offset);
    }

    @Override
    public String toString() {
        return mechanism + "[" + (fileDescriptor >= 0 ? "fd " + fileDescriptor : HexFormat.of().formatHex(handle))
                + ", offset " + offset + ", allocation " + allocationSize + "]";
    }
}
