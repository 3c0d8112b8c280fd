package dev.quiver.internal.backend;

import dev.quiver.internal.pool.CachingPool;
import dev.quiver.memory.PinnedHostPolicy;
import dev.quiver.internal.pool.StreamOrder;
import dev.quiver.internal.access.ApiAccess;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceCapability;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.spi.IpcEvents;
import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.NativeAdoption;
import dev.quiver.spi.PinnedHostMemory;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.Optional;

/**
 * A backend device behind the argument checks every backend shares, so that plugins, Quiver's and vendors'
 * alike, get them without writing them: alignment a power of two; sizes, offsets and counts non-negative and
 * not overflowing; copy ranges inside the allocation where this view saw the allocation (or inside the
 * segment passed as the pointer where that segment has a size); a read-only host destination; NULL where a
 * handle is required; memory, streams and events that another device's view made or adopted (for handles
 * from 64 KiB up, which are addresses; smaller values are tokens whose meaning differs between backends);
 * and freeing what this view did not allocate, or twice. Failures are {@link IllegalArgumentException}s
 * naming the argument, thrown before the backend is called, so they leak nothing.
 *
 * <p>Valid calls are forwarded unchanged, with their results and exceptions. The capabilities the API knows
 * (events, inter-process memory and events, adoption, pinned host memory) are handed out behind the same
 * checks by {@link #capability}. Handles this view does not know (pointers of imported arrays, streams of
 * other libraries) are forwarded too: the backend decides.
 *
 * <p>There is one view per backend device ({@link #of}); all memory, streams and events of the device must go
 * through it, since it keeps track of what it allocated, created and adopted. The view owns nothing itself:
 * handles belong to the caller as the {@link BackendDevice} contract says.
 *
 * <p><b>Threading.</b> Like the backend: every method may be called from any thread, concurrently. Checks
 * take no lock and allocate nothing on copies; allocation, free, and stream and event lifetimes update this
 * view's tables under short locks.
 */
public final class CheckedBackendDevice implements BackendDevice {
    /** Handles below this are small tokens (stream ids, special stream values), never addresses. */
    static final long SMALLEST_ADDRESS = 64 * 1024;

    private final BackendDevice backend;
    /** How messages name the device, made on first use: a device's name may cost a file read. */
    private volatile String label;
    private final boolean hostAccessible;
    private final long defaultStream;
    private final HandleTable allocations = new HandleTable();
    private final HandleTable streams = new HandleTable();
    /** The backend's events behind their checks; null where it neither makes nor waits on events. */
    private final CheckedEvents events;
    private final boolean makesEvents;
    private final CheckedAdoption adoption;
    /** The backend's inter-process memory and events behind their checks, made on first use. */
    private volatile CheckedIpc ipc;
    private final CachingPool pool;
    private volatile CheckedBackendDevice pinnedView;
    private volatile boolean noPinnedMemory;
    private final StreamOrder order;

    CheckedBackendDevice(BackendDevice backend) {
        this.backend = backend;
        this.hostAccessible = backend.hostAccessible();
        this.events = CheckedEvents.of(backend, this);
        this.makesEvents = events != null && events.makesEvents();
        this.adoption = new CheckedAdoption(backend, backend.capability(NativeAdoption.class).orElse(null), this);
        this.defaultStream = backend.defaultStream().address();
        String name = DeviceLabels.typeAndId(backend);
        this.pool = new CachingPool(backend, name);
        this.order = new StreamOrder(this, name);
    }

    /** @return the memory pool every allocation of this device goes through */
    public CachingPool pool() {
        return pool;
    }

    /** @return the stream order in which this device runs deferred releases */
    public StreamOrder streamOrder() {
        return order;
    }

    /**
     * Frees what {@link #allocate} returned once the work enqueued on {@code stream} so far completes, without
     * blocking: the memory returns to the pool then. Checked as {@link #free} is.
     *
     * @param pointer a pointer this view allocated
     * @param stream  a stream of this device
     */
    public void freeAfter(MemorySegment pointer, MemorySegment stream) {
        if (pointer.equals(MemorySegment.NULL)) {
            return;
        }
        if (allocations.remove(pointer.address()) == HandleTable.ABSENT) {
            CheckedBackendDevice holder = CheckedDevices.holderOf(HandleKind.ALLOCATION, pointer.address(), this);
            throw new IllegalArgumentException(hex(pointer.address()) + " was not allocated by " + this
                    + (holder == null ? " or was already freed" : " but by " + holder));
        }
        StreamOrder.Point point = order.mark(stream);
        if (!pool.freeAfter(pointer, point)) {
            point.then(() -> backend.free(pointer));
        }
    }

    /**
     * @param backend a backend device, or a checked view (returned as it is)
     * @return the checked view of {@code backend}, the same object on every call for the same device
     */
    public static CheckedBackendDevice of(BackendDevice backend) {
        return backend instanceof CheckedBackendDevice checked ? checked : CheckedDevices.of(backend);
    }

    // ---- identity -----------------------------------------------------------------------------

    @Override
    public int deviceType() {
        return backend.deviceType();
    }

    @Override
    public long deviceId() {
        return backend.deviceId();
    }

    @Override
    public String name() {
        return backend.name();
    }

    @Override
    public long totalMemory() {
        return backend.totalMemory();
    }

    @Override
    public dev.quiver.spi.HardwareKind hardwareKind() {
        return backend.hardwareKind();
    }

    @Override
    public int computeUnits() {
        return backend.computeUnits();
    }

    @Override
    public java.util.Optional<dev.quiver.spi.LoadedLibrary> vendorLibrary() {
        return backend.vendorLibrary();
    }

    @Override
    public boolean hostAccessible() {
        return hostAccessible;
    }

    @Override
    public Map<String, String> properties() {
        return backend.properties();
    }

    // ---- memory -------------------------------------------------------------------------------

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        try {
            DeviceArguments.nonNegative("byteSize", byteSize);
            DeviceArguments.powerOfTwo(alignment);
            MemorySegment pointer = pool.allocate(byteSize, alignment);
            if (!pointer.equals(MemorySegment.NULL)) {
                allocations.put(pointer.address(), byteSize);
            }
            return pointer;
        } catch (DeviceException e) {
            throw failed(e);
        }
    }

    @Override
    public void free(MemorySegment pointer) {
        try {
            if (!pointer.equals(MemorySegment.NULL) && allocations.remove(pointer.address()) == HandleTable.ABSENT) {
                CheckedBackendDevice holder = CheckedDevices.holderOf(HandleKind.ALLOCATION, pointer.address(), this);
                throw new IllegalArgumentException(hex(pointer.address()) + " was not allocated by " + this
                        + (holder == null ? " or was already freed" : " but by " + holder));
            }
            if (!pool.free(pointer)) {
                backend.free(pointer);
            }
        } catch (DeviceException e) {
            throw failed(e);
        }
    }

    // ---- caches and capabilities -----------------------------------------------------------

    @Override
    public void releaseCaches() {
        try {
            backend.releaseCaches();
        } catch (DeviceException e) {
            throw failed(e);
        }
    }

    /**
     * {@return the capability of the backend, behind this view's checks where the API knows the capability;
     * a capability it does not know is the backend's own} {@link NativeAdoption} is answered for every device:
     * where the backend lacks it, a stream the device made itself is adopted as it is and there are no native
     * handles, as the API's {@code Device.adoptStream} promises on every device.
     */
    @Override
    public <C extends DeviceCapability> Optional<C> capability(Class<C> kind) {
        Object found;
        if (kind == PinnedHostMemory.class) {
            found = backend.capability(PinnedHostMemory.class).map(pinned -> new CheckedPinnedHost(pinned, this)).orElse(null);
        } else if (kind == DeviceEvents.class) {
            found = makesEvents ? events : null;
        } else if (kind == EventWaits.class) {
            found = events;
        } else if (kind == NativeAdoption.class) {
            found = adoption;
        } else if (kind == IpcMemory.class) {
            found = ipc().offersMemory() ? ipc() : null;
        } else if (kind == IpcEvents.class) {
            found = ipc().offersEvents() ? ipc() : null;
        } else {
            return backend.capability(kind);
        }
        return Optional.ofNullable(kind.cast(found));
    }

    private CheckedIpc ipc() {
        CheckedIpc made = ipc;
        if (made == null) {
            made = new CheckedIpc(backend.capability(IpcMemory.class).orElse(null),
                    backend.capability(IpcEvents.class).orElse(null), events, this);
            ipc = made;
        }
        return made;
    }

    /**
     * The host memory pinned for this device, as a CPU device whose pool is the device's pinned host pool,
     * made on first use; null where the {@link PinnedHostPolicy} in force or the backend says no.
     *
     * @return the checked view of that memory, or null
     */
    public CheckedBackendDevice pinnedHost() {
        PinnedHostPolicy policy = PinnedHostPolicy.current();
        if (policy == PinnedHostPolicy.NEVER || policy == PinnedHostPolicy.AUTO
                && !backend.capability(PinnedHostMemory.class).map(PinnedHostMemory::pinsHostMemory).orElse(false)) {
            return null;
        }
        return pinnedHostView();
    }

    /** @return the checked view of pinned host memory whatever the policy, or null if the backend has none */
    public CheckedBackendDevice pinnedHostView() {
        CheckedBackendDevice view = pinnedView;
        if (view == null && !noPinnedMemory) {
            synchronized (this) {
                if (pinnedView == null && !noPinnedMemory) {
                    PinnedHostMemory pinned = backend.capability(PinnedHostMemory.class).orElse(null);
                    try {
                        if (pinned == null) {
                            noPinnedMemory = true;
                        } else {
                            pinned.freeHost(pinned.allocateHost(1, 64));
                            pinnedView = CheckedBackendDevice.of(new PinnedHostDevice(backend, pinned, DeviceLabels.typeAndId(backend)));
                        }
                    } catch (dev.quiver.spi.DeviceException e) {
                        noPinnedMemory = true;
                    }
                }
                view = pinnedView;
            }
        }
        return view;
    }

    // ---- copies -------------------------------------------------------------------------------

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        try {
            checkRange("destination", destination, "destinationOffset", destinationOffset, source.byteSize());
            checkStream(stream);
            CheckedBackendDevice pinned;
            if (StagedCopies.worthStaging(source) && makesEvents && (pinned = pinnedHost()) != null) {
                StagedCopies.upload(backend, pinned, order, source, destination, destinationOffset, stream);
            } else {
                backend.copyFromHost(source, destination, destinationOffset, stream);
            }
        } catch (DeviceException e) {
            throw failed(e);
        }
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        try {
            if (destination.isReadOnly()) {
                throw new IllegalArgumentException("destination is a read-only segment");
            }
            checkRange("source", source, "sourceOffset", sourceOffset, destination.byteSize());
            checkStream(stream);
            CheckedBackendDevice pinned;
            if (StagedCopies.worthStaging(destination) && makesEvents && (pinned = pinnedHost()) != null) {
                StagedCopies.download(backend, pinned, order, source, sourceOffset, destination, stream);
            } else {
                backend.copyToHost(source, sourceOffset, destination, stream);
            }
        } catch (DeviceException e) {
            throw failed(e);
        }
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        try {
            DeviceArguments.nonNegative("byteCount", byteCount);
            checkRange("source", source, "sourceOffset", sourceOffset, byteCount);
            checkRange("destination", destination, "destinationOffset", destinationOffset, byteCount);
            checkStream(stream);
            backend.copyWithinDevice(source, sourceOffset, destination, destinationOffset, byteCount, stream);
        } catch (DeviceException e) {
            throw failed(e);
        }
    }

    // ---- streams ------------------------------------------------------------------------------

    @Override
    public MemorySegment defaultStream() {
        return backend.defaultStream();
    }

    @Override
    public MemorySegment createStream() {
        try {
            MemorySegment stream = backend.createStream();
            streams.put(stream.address(), 0);
            return stream;
        } catch (DeviceException e) {
            throw failed(e);
        }
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        try {
            checkStream(stream);
            backend.synchronizeStream(stream);
        } catch (DeviceException e) {
            throw failed(e);
        }
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        try {
            checkOwnedStream(stream);
            streams.remove(stream.address());
            backend.destroyStream(stream);
        } catch (DeviceException e) {
            throw failed(e);
        }
    }

    // ---- lookups for the other views ----------------------------------------------------------

    /** Notes a stream adopted through this view's {@link NativeAdoption}, or forgets it ({@code live} false). */
    void trackStream(MemorySegment stream, boolean live) {
        if (live) {
            streams.put(stream.address(), 0);
        } else {
            streams.remove(stream.address());
        }
    }

    /** @return whether this view made or adopted {@code address} as a live handle of that kind */
    boolean holds(HandleKind kind, long address) {
        HandleTable table = switch (kind) {
            case ALLOCATION -> allocations;
            case STREAM -> streams;
            case EVENT -> null;
        };
        return table == null ? events != null && events.holds(address) : table.get(address) != HandleTable.ABSENT;
    }

    /** @return the API's exception for a backend's failure on this device (see {@link ApiAccess#translate}) */
    RuntimeException failed(DeviceException failure) {
        return ApiAccess.translate(failure, DeviceLabels.typeAndId(backend));
    }

    @Override
    public String toString() {
        String made = label;
        if (made == null) {
            made = DeviceLabels.of(backend);
            label = made;
        }
        return made;
    }

    // ---- checks -------------------------------------------------------------------------------

    /**
     * Checks that bytes [offset, offset + bytes) of a device pointer can be addressed: a sound range, a
     * non-NULL pointer when bytes move, inside the allocation or sized segment, and not another device's memory.
     */
    private void checkRange(String pointerName, MemorySegment pointer, String offsetName, long offset, long bytes) {
        DeviceArguments.range(offsetName, offset, bytes);
        if (bytes == 0) {
            return;
        }
        long address = pointer.address();
        if (address == 0) {
            throw new IllegalArgumentException(pointerName + " is NULL");
        }
        long end = offset + bytes;
        long sized = pointer.byteSize();
        if (hostAccessible && end <= sized) {
            // Host memory as allocate returned it carries its size, and host memory is valid on every
            // host-accessible device: a range inside the segment needs no lookup.
            return;
        }
        long size = allocations.get(address);
        if (size != HandleTable.ABSENT) {
            if (end > size) {
                throw new IllegalArgumentException(pointerName + " range [" + offset + ", " + end + ") is outside the "
                        + size + "-byte allocation " + hex(address) + " of " + this);
            }
            return;
        }
        if (sized > 0 && end > sized) {
            throw new IllegalArgumentException(pointerName + " is a segment of " + sized + " bytes, too small for " + bytes
                    + " bytes at " + offsetName + " " + offset);
        }
        if (address >= SMALLEST_ADDRESS) {
            CheckedBackendDevice holder = CheckedDevices.holderOf(HandleKind.ALLOCATION, address, this);
            if (holder != null && !(hostAccessible && holder.hostAccessible)) {
                throw belongsElsewhere(pointerName, HandleKind.ALLOCATION, address, holder);
            }
        }
    }

    /** Checks that a stream is not another device's; the default stream and unknown streams pass. */
    void checkStream(MemorySegment stream) {
        long address = stream.address();
        if (address != defaultStream && address >= SMALLEST_ADDRESS && streams.get(address) == HandleTable.ABSENT) {
            checkForeign(HandleKind.STREAM, "stream", address);
        }
    }

    /** Checks a stream about to be destroyed or forgotten: never the default stream, never another device's. */
    void checkOwnedStream(MemorySegment stream) {
        if (stream.address() == defaultStream) {
            throw new IllegalArgumentException("stream " + hex(stream.address()) + " is the default stream of " + this
                    + ", which is borrowed and never destroyed");
        }
        checkStream(stream);
    }

    void checkForeign(HandleKind kind, String name, long address) {
        if (address < SMALLEST_ADDRESS || holds(kind, address)) {
            return;
        }
        CheckedBackendDevice holder = CheckedDevices.holderOf(kind, address, this);
        if (holder != null) {
            throw belongsElsewhere(name, kind, address, holder);
        }
    }

    private IllegalArgumentException belongsElsewhere(String name, HandleKind kind, long address, CheckedBackendDevice holder) {
        return new IllegalArgumentException(name + " " + hex(address) + " is " + kind.word() + " of " + holder + ", not of " + this);
    }

    static void requireHandle(String name, MemorySegment handle) {
        if (handle.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(name + " is NULL");
        }
    }

    static String hex(long address) {
        return "0x" + Long.toHexString(address);
    }
}
