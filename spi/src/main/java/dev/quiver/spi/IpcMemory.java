package dev.quiver.spi;

import java.lang.foreign.MemorySegment;

/**
 * A device capability: the device's memory from {@link BackendDevice#allocate} reaches another process on
 * this machine without a copy, by the driver mechanism {@link #ipcMechanism()} names ({@code cuIpcGetMemHandle},
 * a Vulkan memory file descriptor, ...). Found with {@code device.capability(IpcMemory.class)}; a device
 * without it has its memory copied through shared host memory instead.
 *
 * <p><b>Ownership.</b> Exporting gives nothing new to release; the exported memory must stay allocated until
 * every peer closed what it opened. What {@link #openMemory} returns is owned by the caller, who closes it
 * exactly once with {@link ImportedMemory#close()}, before the exporter frees the memory.
 *
 * <p><b>Threading.</b> All methods may be called from any thread, concurrently.
 */
public interface IpcMemory extends DeviceCapability {

    /** {@return the mechanism; never {@link IpcMechanism#NONE}} */
    IpcMechanism ipcMechanism();

    /**
     * Exports device memory for another process: the driver's handle of the allocation that holds
     * {@code pointer + offset}, and that address's offset within the allocation (driver handles name an
     * allocation's start). The memory must stay allocated until every peer closed what it opened.
     *
     * @param pointer a device pointer of this device, as allocated or imported
     * @param offset  byte offset into {@code pointer}
     * @return the handle, with the offset of {@code pointer + offset} in its allocation
     * @throws IllegalArgumentException if the address is not in an allocation the mechanism can export
     * @throws DeviceException          if the driver fails
     */
    IpcMemoryHandle exportMemory(MemorySegment pointer, long offset);

    /**
     * Opens memory that another process exported with {@link #exportMemory}, on this device.
     *
     * @param handle a handle of this device's {@link #ipcMechanism()}, made by another process
     * @return the memory, owned by the caller, who closes it exactly once
     * @throws IllegalArgumentException if the handle is of another mechanism
     * @throws DeviceException          if the driver refuses the handle (not exported, exporter gone,
     *                                  exported by this same process); the message names the driver call
     */
    ImportedMemory openMemory(IpcMemoryHandle handle);
}
