package dev.quiver.device.cuda;

import dev.quiver.device.ffm.IpcHandles;
import dev.quiver.device.ffm.VendorIpc;
import dev.quiver.device.ffm.VendorIpcEvents;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemorySegment;

import static dev.quiver.device.cuda.CudaConstants.CU_EVENT_DISABLE_TIMING;
import static dev.quiver.device.cuda.CudaConstants.CU_EVENT_INTERPROCESS;
import static dev.quiver.device.cuda.CudaConstants.CU_IPC_HANDLE_SIZE;
import static dev.quiver.device.cuda.CudaConstants.CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS;

/**
 * CUDA IPC of {@code cuMemAlloc} memory: {@code cuIpcGetMemHandle} names the allocation holding a pointer
 * (found with {@code cuMemGetAddressRange}, so pointers inside an allocation, such as a pool's
 * sub-allocations, export with their offset), {@code cuIpcOpenMemHandle} maps it in another process and
 * {@code cuIpcCloseMemHandle} unmaps it there. Events the same way: {@code cuEventCreate} with
 * {@code CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING} makes an event for sharing, {@code cuIpcGetEventHandle}
 * names it, and {@code cuIpcOpenEventHandle} opens it in another process as an event without timing, destroyed
 * there with {@code cuEventDestroy}. The driver refuses to open a handle in the process that made it. Every
 * call runs with the device's context current. Immutable and thread-safe.
 *
 * @param driver  the driver
 * @param context the device's context
 */
record CudaIpc(CudaDriver driver, CudaContext context) implements VendorIpc, VendorIpcEvents {
    /** {@code CUipcMemHandle}: 64 opaque bytes, passed by value. */
    static final GroupLayout MEM_HANDLE = IpcHandles.layout("reserved", CU_IPC_HANDLE_SIZE);
    /** {@code CUipcEventHandle}: 64 opaque bytes, passed by value. */
    static final GroupLayout EVENT_HANDLE = IpcHandles.layout("reserved", CU_IPC_HANDLE_SIZE);

    @Override
    public IpcMechanism mechanism() {
        return IpcMechanism.CUDA_IPC;
    }

    /** {@return the handle of the allocation holding {@code address}, with the address's offset in it} */
    @Override
    public IpcMemoryHandle export(long address) {
        return context.call(() -> IpcHandles.export(IpcMechanism.CUDA_IPC, MEM_HANDLE, address,
                range(),
                (base, handle) -> driver.api.check(CudaFunction.cuIpcGetMemHandle, h -> (int) h.invokeExact(handle, base))));
    }

    /** {@return the peer's memory mapped in {@code context}, closed with {@code cuIpcCloseMemHandle}} */
    @Override
    public ImportedMemory open(IpcMemoryHandle handle, Object device) {
        return context.call(() -> IpcHandles.open(IpcMechanism.CUDA_IPC, handle, device,
                (bytes, out) -> driver.api.check(CudaFunction.cuIpcOpenMemHandle,
                        h -> (int) h.invokeExact(out, bytes, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS)),
                range(),
                opened -> context.run(() -> driver.api.check(CudaFunction.cuIpcCloseMemHandle, h -> (int) h.invokeExact(opened.address())))));
    }

    /** {@return a new {@code CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING} event, owned by the caller} */
    @Override
    public MemorySegment create() {
        return context.call(() -> driver.api.handleOut(CudaFunction.cuEventCreate,
                (h, out) -> (int) h.invokeExact(out, CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING)));
    }

    /** Writes the event's {@code CUipcEventHandle} with {@code cuIpcGetEventHandle}. */
    @Override
    public void export(MemorySegment event, MemorySegment handle) {
        context.run(() -> driver.api.check(CudaFunction.cuIpcGetEventHandle, h -> (int) h.invokeExact(handle, event)));
    }

    /** {@return the peer's event opened with {@code cuIpcOpenEventHandle}, destroyed with {@code cuEventDestroy}} */
    @Override
    public MemorySegment open(MemorySegment handle) {
        return context.call(() -> driver.api.handleOut(CudaFunction.cuIpcOpenEventHandle,
                (h, out) -> (int) h.invokeExact(out, handle)));
    }

    /** {@return the driver call that finds the allocation holding an address, exported or opened} */
    private IpcHandles.RangeCall range() {
        return (at, base, size) -> driver.api.check(CudaFunction.cuMemGetAddressRange, h -> (int) h.invokeExact(base, size, at));
    }
}
