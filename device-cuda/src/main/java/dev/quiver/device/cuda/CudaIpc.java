package dev.quiver.device.cuda;

import dev.quiver.device.ffm.DriverIpc;
import dev.quiver.device.ffm.VendorIpcEvents;
import dev.quiver.spi.IpcMechanism;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

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
record CudaIpc(CudaDriver driver, CudaContext context) implements DriverIpc, VendorIpcEvents {
    /** {@code CUipcMemHandle}: 64 opaque bytes, passed by value. */
    static final GroupLayout MEM_HANDLE = DriverIpc.handleLayout("reserved", CU_IPC_HANDLE_SIZE);
    /** {@code CUipcEventHandle}: 64 opaque bytes, passed by value. */
    static final GroupLayout EVENT_HANDLE = DriverIpc.handleLayout("reserved", CU_IPC_HANDLE_SIZE);

    @Override
    public IpcMechanism mechanism() {
        return IpcMechanism.CUDA_IPC;
    }

    /** Pushes the device's context for the duration of {@code work}. */
    @Override
    public <T> T inContext(Supplier<T> work) {
        return context.call(work);
    }

    @Override
    public GroupLayout memoryHandle() {
        return MEM_HANDLE;
    }

    /** {@code cuMemGetAddressRange}. */
    @Override
    public void findAllocation(long address, MemorySegment base, MemorySegment size) {
        driver.api.check(CudaFunction.cuMemGetAddressRange, h -> (int) h.invokeExact(base, size, address));
    }

    /** {@code cuIpcGetMemHandle}. */
    @Override
    public void nameAllocation(long base, MemorySegment handle) {
        driver.api.check(CudaFunction.cuIpcGetMemHandle, h -> (int) h.invokeExact(handle, base));
    }

    /** {@code cuIpcOpenMemHandle} with {@code CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS}. */
    @Override
    public void openHandle(MemorySegment handle, MemorySegment pointer) {
        driver.api.check(CudaFunction.cuIpcOpenMemHandle, h -> (int) h.invokeExact(pointer, handle, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS));
    }

    /** {@code cuIpcCloseMemHandle}. */
    @Override
    public void closeHandle(MemorySegment opened) {
        driver.api.check(CudaFunction.cuIpcCloseMemHandle, h -> (int) h.invokeExact(opened.address()));
    }

    /** {@return a new {@code CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING} event, owned by the caller} */
    @Override
    public MemorySegment create() {
        return context.call(() -> driver.calls.createEvent(CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING));
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
}
