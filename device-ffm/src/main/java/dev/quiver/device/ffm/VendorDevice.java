package dev.quiver.device.ffm;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcEventHandle;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * What every FFM vendor device has in common: its identity, its kind of memory, and allocation within the
 * vendor's alignment guarantee with tracked pointers (so that a double or foreign free fails clearly before
 * reaching the vendor). The argument checks common to all backends (sizes, power-of-two alignments, offsets)
 * are the API's, which serves every device behind them. Subclasses allocate, free, copy, and run streams and events through their vendor API.
 *
 * <p>Immutable apart from the allocation bookkeeping, which is thread-safe; subclasses must be thread-safe.
 */
public abstract class VendorDevice implements BackendDevice, dev.quiver.spi.IpcMemory {
    private final MemoryKind memory;
    private final long deviceId;
    private final String name;
    private final long totalMemory;
    private final long maxAlignment;
    private final String vendor;
    private final Allocations allocations = new Allocations();
    /** What {@link #findIpcEvents()} found, null until it was asked. */
    private volatile java.util.Optional<VendorIpcEvents> ipcEvents;

    /**
     * @param memory       the kind of memory this device allocates
     * @param deviceId     the Arrow {@code device_id}
     * @param name         a human-readable name
     * @param totalMemory  bytes, or -1 if unknown
     * @param maxAlignment the alignment the vendor allocator guarantees
     * @param vendor       the vendor API, for messages (for example {@code CUDA})
     */
    protected VendorDevice(MemoryKind memory, long deviceId, String name, long totalMemory, long maxAlignment, String vendor) {
        this.memory = memory;
        this.deviceId = deviceId;
        this.name = name;
        this.totalMemory = totalMemory;
        this.maxAlignment = maxAlignment;
        this.vendor = vendor;
    }

    /** @return the kind of memory this device allocates */
    protected final MemoryKind memory() {
        return memory;
    }

    @Override
    public final int deviceType() {
        return memory.deviceType();
    }

    @Override
    public final long deviceId() {
        return deviceId;
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final long totalMemory() {
        return totalMemory;
    }

    @Override
    public final boolean hostAccessible() {
        return memory.hostAccessible();
    }

    /**
     * Allocates at least one byte (so that size 0 still yields a pointer {@link #free} accepts), aligned to at
     * least the vendor's guarantee.
     */
    @Override
    public final MemorySegment allocate(long byteSize, long alignment) {
        Allocations.checkAlignment(alignment, maxAlignment, vendor);
        MemorySegment pointer = allocateNative(Math.max(byteSize, 1));
        allocations.add(pointer);
        return memory.hostAccessible() ? pointer.reinterpret(byteSize) : pointer;
    }

    @Override
    public final void free(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return;
        }
        allocations.remove(pointer, this);
        freeNative(pointer);
    }

    /**
     * {@return the vendor's inter-process calls for this device's memory, if the mechanism serves it; empty
     * (the default) where it has none}
     */
    protected java.util.Optional<VendorIpc> ipc() {
        return java.util.Optional.empty();
    }

    /** {@return the mechanism of {@link #ipc()}, or {@link IpcMechanism#NONE}} */
    @Override
    public final IpcMechanism ipcMechanism() {
        return ipc().map(VendorIpc::mechanism).orElse(IpcMechanism.NONE);
    }

    /**
     * Exports the allocation holding {@code pointer + offset} with {@link #ipc()}.
     *
     * @throws UnsupportedOperationException if the device has no mechanism for its memory
     */
    @Override
    public final IpcMemoryHandle exportMemory(MemorySegment pointer, long offset) {
        return requireIpc().export(pointer.address() + offset);
    }

    /**
     * Opens a peer's handle with {@link #ipc()}.
     *
     * @throws UnsupportedOperationException if the device has no mechanism for its memory
     */
    @Override
    public final ImportedMemory openMemory(IpcMemoryHandle handle) {
        return requireIpc().open(handle, this);
    }

    /**
     * {@return the vendor's inter-process event calls, where the device's events reach another process by its
     * {@link #ipcMechanism()}; empty (the default) where they do not} Asked once, on first use, and kept: a
     * backend may ask the driver here.
     */
    protected java.util.Optional<VendorIpcEvents> findIpcEvents() {
        return java.util.Optional.empty();
    }

    /** {@return what {@link #findIpcEvents()} found, asked once (racing threads find the same)} */
    private java.util.Optional<VendorIpcEvents> ipcEvents() {
        java.util.Optional<VendorIpcEvents> found = ipcEvents;
        if (found == null) {
            found = findIpcEvents();
            ipcEvents = found;
        }
        return found;
    }

    /**
     * {@return the capability, as {@link BackendDevice#capability} finds it, but {@link dev.quiver.spi.IpcMemory}
     * only where {@link #ipc()} has calls, and {@link dev.quiver.spi.IpcEvents} only where {@link #findIpcEvents()}
     * found calls}
     */
    @Override
    public <C extends dev.quiver.spi.DeviceCapability> java.util.Optional<C> capability(Class<C> kind) {
        if (kind == dev.quiver.spi.IpcMemory.class && ipc().isEmpty()
                || kind == dev.quiver.spi.IpcEvents.class && ipcEvents().isEmpty()) {
            return java.util.Optional.empty();
        }
        return BackendDevice.super.capability(kind);
    }

    /**
     * Makes an event for sharing with {@link #findIpcEvents()}'s calls.
     *
     * @throws UnsupportedOperationException if the device's events do not reach other processes
     */
    public final MemorySegment createInterProcessEvent() {
        return requireIpcEvents().create();
    }

    /**
     * Exports an event with {@link #findIpcEvents()}'s calls.
     *
     * @throws UnsupportedOperationException if the device's events do not reach other processes
     */
    public final IpcEventHandle exportEvent(MemorySegment event) {
        VendorIpcEvents calls = requireIpcEvents();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment handle = arena.allocate(calls.mechanism().eventHandleBytes());
            calls.export(event, handle);
            return new IpcEventHandle(calls.mechanism(), handle.toArray(JAVA_BYTE));
        }
    }

    /**
     * Opens a peer's event handle with {@link #findIpcEvents()}'s calls, after checking its mechanism.
     *
     * @throws UnsupportedOperationException if the device's events do not reach other processes
     * @throws IllegalArgumentException      if the handle is of another mechanism; no driver call is made
     */
    public final MemorySegment openEvent(IpcEventHandle handle) {
        VendorIpcEvents calls = requireIpcEvents();
        if (handle.mechanism() != calls.mechanism()) {
            throw new IllegalArgumentException("a " + handle.mechanism() + " event handle cannot be opened on " + this
                    + ", whose mechanism is " + calls.mechanism());
        }
        try (Arena arena = Arena.ofConfined()) {
            return calls.open(arena.allocateFrom(JAVA_BYTE, handle.handle()));
        }
    }

    private VendorIpcEvents requireIpcEvents() {
        return ipcEvents().orElseThrow(() -> new UnsupportedOperationException(this + " has no inter-process mechanism for events"));
    }

    private VendorIpc requireIpc() {
        return ipc().orElseThrow(() -> new UnsupportedOperationException(this + " has no inter-process mechanism for "
                + memory.allocator() + " memory"));
    }

    /**
     * @param byteSize bytes to allocate, at least 1
     * @return the vendor's pointer or handle
     */
    protected abstract MemorySegment allocateNative(long byteSize);

    /**
     * @param pointer what {@link #allocateNative} returned, freed exactly once
     */
    protected abstract void freeNative(MemorySegment pointer);

    @Override
    public String toString() {
        return memory.typeName() + ":" + deviceId + " " + name;
    }
}
