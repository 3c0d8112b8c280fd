package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.DriverIpc;
import dev.quiver.spi.IpcMechanism;

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
record ZeIpc(ZeDevice device) implements DriverIpc {
    /** {@code ze_ipc_mem_handle_t}: 64 opaque bytes, passed by value. */
    static final GroupLayout MEM_HANDLE = DriverIpc.handleLayout("data", ZE_MAX_IPC_HANDLE_SIZE);

    @Override
    public IpcMechanism mechanism() {
        return IpcMechanism.LEVEL_ZERO_IPC;
    }

    @Override
    public GroupLayout memoryHandle() {
        return MEM_HANDLE;
    }

    /** {@code zeMemGetAddressRange} in the device's context. */
    @Override
    public void findAllocation(long address, MemorySegment base, MemorySegment size) {
        device.api.check(ZeFunction.zeMemGetAddressRange,
                h -> (int) h.invokeExact(device.context, MemorySegment.ofAddress(address), base, size));
    }

    /** {@code zeMemGetIpcHandle} in the device's context. */
    @Override
    public void nameAllocation(long base, MemorySegment handle) {
        device.api.check(ZeFunction.zeMemGetIpcHandle, h -> (int) h.invokeExact(device.context, MemorySegment.ofAddress(base), handle));
    }

    /** {@code zeMemOpenIpcHandle} on the device, with no cache bias flags. */
    @Override
    public void openHandle(MemorySegment handle, MemorySegment pointer) {
        device.api.check(ZeFunction.zeMemOpenIpcHandle, h -> (int) h.invokeExact(device.context, device.device, handle, 0, pointer));
    }

    /** {@code zeMemCloseIpcHandle} in the device's context. */
    @Override
    public void closeHandle(MemorySegment opened) {
        device.api.check(ZeFunction.zeMemCloseIpcHandle, h -> (int) h.invokeExact(device.context, opened));
    }
}
