package dev.quiver.device.rocm;

import dev.quiver.device.ffm.DriverIpc;
import dev.quiver.device.ffm.VendorIpcEvents;
import dev.quiver.spi.IpcMechanism;

import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

import static dev.quiver.device.rocm.HipConstants.HIP_IPC_HANDLE_SIZE;
import static dev.quiver.device.rocm.HipConstants.hipEventDisableTiming;
import static dev.quiver.device.rocm.HipConstants.hipEventInterprocess;
import static dev.quiver.device.rocm.HipConstants.hipIpcMemLazyEnablePeerAccess;

/**
 * HIP IPC of {@code hipMalloc} memory: {@code hipIpcGetMemHandle} names the allocation holding a pointer
 * (found with {@code hipMemGetAddressRange}, so pointers inside an allocation export with their offset),
 * {@code hipIpcOpenMemHandle} maps it in another process and {@code hipIpcCloseMemHandle} unmaps it there.
 * Events the same way: {@code hipEventCreateWithFlags} with {@code hipEventInterprocess | hipEventDisableTiming}
 * makes an event for sharing, {@code hipIpcGetEventHandle} names it, and {@code hipIpcOpenEventHandle} opens it
 * in another process as an event without timing, destroyed there with {@code hipEventDestroy}; the runtime
 * refuses to open an event handle in the process that made it ({@code hipErrorInvalidContext}). Every call
 * runs with the device current. Immutable and thread-safe.
 *
 * @param hip     the runtime
 * @param ordinal the device's ordinal
 */
record HipIpc(HipRuntime hip, int ordinal) implements DriverIpc, VendorIpcEvents {
    /** {@code hipIpcMemHandle_t}: 64 opaque bytes, passed by value. */
    static final GroupLayout MEM_HANDLE = DriverIpc.handleLayout("reserved", HIP_IPC_HANDLE_SIZE);
    /** {@code hipIpcEventHandle_t}: 64 opaque bytes, passed by value. */
    static final GroupLayout EVENT_HANDLE = DriverIpc.handleLayout("reserved", HIP_IPC_HANDLE_SIZE);

    @Override
    public IpcMechanism mechanism() {
        return IpcMechanism.HIP_IPC;
    }

    /** Makes device {@code ordinal} current for the duration of {@code work}. */
    @Override
    public <T> T inContext(Supplier<T> work) {
        return hip.onDevice(ordinal, work);
    }

    @Override
    public GroupLayout memoryHandle() {
        return MEM_HANDLE;
    }

    /** {@code hipMemGetAddressRange}. */
    @Override
    public void findAllocation(long address, MemorySegment base, MemorySegment size) {
        hip.api.check(HipFunction.hipMemGetAddressRange, h -> (int) h.invokeExact(base, size, MemorySegment.ofAddress(address)));
    }

    /** {@code hipIpcGetMemHandle}. */
    @Override
    public void nameAllocation(long base, MemorySegment handle) {
        hip.api.check(HipFunction.hipIpcGetMemHandle, h -> (int) h.invokeExact(handle, MemorySegment.ofAddress(base)));
    }

    /** {@code hipIpcOpenMemHandle} with {@code hipIpcMemLazyEnablePeerAccess}. */
    @Override
    public void openHandle(MemorySegment handle, MemorySegment pointer) {
        hip.api.check(HipFunction.hipIpcOpenMemHandle, h -> (int) h.invokeExact(pointer, handle, hipIpcMemLazyEnablePeerAccess));
    }

    /** {@code hipIpcCloseMemHandle}. */
    @Override
    public void closeHandle(MemorySegment opened) {
        hip.api.check(HipFunction.hipIpcCloseMemHandle, h -> (int) h.invokeExact(opened));
    }

    /** {@return a new {@code hipEventInterprocess | hipEventDisableTiming} event, owned by the caller} */
    @Override
    public MemorySegment create() {
        return hip.onDevice(ordinal, () -> hip.calls.createEvent(hipEventInterprocess | hipEventDisableTiming));
    }

    /** Writes the event's {@code hipIpcEventHandle_t} with {@code hipIpcGetEventHandle}. */
    @Override
    public void export(MemorySegment event, MemorySegment handle) {
        hip.onDevice(ordinal, () -> hip.api.check(HipFunction.hipIpcGetEventHandle, h -> (int) h.invokeExact(handle, event)));
    }

    /** {@return the peer's event opened with {@code hipIpcOpenEventHandle}, destroyed with {@code hipEventDestroy}} */
    @Override
    public MemorySegment open(MemorySegment handle) {
        return hip.onDevice(ordinal, () -> hip.api.handleOut(HipFunction.hipIpcOpenEventHandle,
                (h, out) -> (int) h.invokeExact(out, handle)));
    }
}
