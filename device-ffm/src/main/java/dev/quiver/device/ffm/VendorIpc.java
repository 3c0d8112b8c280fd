package dev.quiver.device.ffm;

import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;

/**
 * A vendor's inter-process memory calls, bound to one device (its context or ordinal): what a
 * {@link VendorDevice} offers through {@code exportMemory} and {@code openMemory} for the kinds of memory the
 * mechanism serves. Implementations are immutable and thread-safe.
 */
public interface VendorIpc {
    /** {@return the mechanism, never {@link IpcMechanism#NONE}} */
    IpcMechanism mechanism();

    /**
     * Exports the allocation holding an address.
     *
     * @param address the device address (pointer plus offset)
     * @return the handle with the address's offset in its allocation
     */
    IpcMemoryHandle export(long address);

    /**
     * Opens a peer's handle on the device.
     *
     * @param handle the handle
     * @param device the device, for messages
     * @return the opened memory, owned by the caller
     */
    ImportedMemory open(IpcMemoryHandle handle, Object device);
}
