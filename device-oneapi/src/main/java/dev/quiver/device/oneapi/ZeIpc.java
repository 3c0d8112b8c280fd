package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.IpcHandles;
import dev.quiver.device.ffm.VendorIpc;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemorySegment;

import static dev.quiver.device.oneapi.ZeConstants.ZE_MAX_IPC_HANDLE_SIZE;

/**
 * Level Zero IPC of {@code zeMemAllocDevice} memory: {@code zeMemGetIpcHandle} names the allocation holding a
 * pointer (found with {@code zeMemGetAddressRange}, so pointers inside an allocation export with their
 * offset), {@code zeMemOpenIpcHandle} maps it in another process on the given device and
 * {@code zeMemCloseIpcHandle} unmaps it there (no cache bias flags). Drivers put a file descriptor of the
 * exporting process in the handle's bytes; carrying it to the peer (by {@code SCM_RIGHTS}) is the
 * transport's job. Immutable and thread-safe.
 *
 * @param device the device and its context
 */
record ZeIpc(ZeDevice device) implements VendorIpc {
    /** {@code ze_ipc_mem_handle_t}: 64 opaque bytes, passed by value. */
    static final GroupLayout MEM_HANDLE = IpcHandles.layout("data", ZE_MAX_IPC_HANDLE_SIZE);

    @Override
    public IpcMechanism mechanism() {
        return IpcMechanism.LEVEL_ZERO_IPC;
    }

    /** {@return the handle of the allocation holding {@code address}, with the address's offset in it} */
    @Override
    public IpcMemoryHandle export(long address) {
        return IpcHandles.export(IpcMechanism.LEVEL_ZERO_IPC, MEM_HANDLE, address,
                range(),
                (base, handle) -> device.api.check(ZeFunction.zeMemGetIpcHandle,
                        h -> (int) h.invokeExact(device.context, MemorySegment.ofAddress(base), handle)));
    }

    /** {@return the peer's memory mapped on this device, closed with {@code zeMemCloseIpcHandle}} */
    @Override
    public ImportedMemory open(IpcMemoryHandle handle, Object owner) {
        return IpcHandles.open(IpcMechanism.LEVEL_ZERO_IPC, handle, owner,
                (bytes, out) -> device.api.check(ZeFunction.zeMemOpenIpcHandle,
                        h -> (int) h.invokeExact(device.context, device.device, bytes, 0, out)),
                range(),
                opened -> device.api.check(ZeFunction.zeMemCloseIpcHandle, h -> (int) h.invokeExact(device.context, opened)));
    }

    /** {@return the driver call that finds the allocation holding an address, exported or opened} */
    private IpcHandles.RangeCall range() {
        return (at, base, size) -> device.api.check(ZeFunction.zeMemGetAddressRange,
                        h -> (int) h.invokeExact(device.context, MemorySegment.ofAddress(at), base, size));
    }
}
