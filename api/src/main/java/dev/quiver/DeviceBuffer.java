package dev.quiver;

import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.backend.CheckedBackendDevice;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * A range of memory on one device: what an array's {@code buffers[i]} points to, or memory a caller
 * allocated to build an array from.
 *
 * <p><b>Pointers.</b> {@link #pointer()} is the raw value an ArrowDeviceArray holds: a host address for the
 * CPU and host-accessible memory, a {@code CUdeviceptr} or {@code hipDeviceptr_t} for CUDA and ROCm, but an
 * opaque handle for OpenCL ({@code cl_mem}), Vulkan ({@code VkBuffer}) and Metal ({@code MTLBuffer}). Never
 * add an offset to a pointer that is not an address: every method here takes offsets beside the pointer.
 *
 * <p><b>Ownership.</b> A buffer is one of three kinds:
 * <ul>
 *   <li><em>owned</em>, from {@link Device#allocate(long)} or {@link Device#wrap}: the caller owns it and
 *       either closes it (freeing the memory, or running the release action of wrapped memory) or moves it
 *       into an array with {@link ArrayBuilder#buffer(DeviceBuffer)}, after which the array frees it on its
 *       release and this object is spent;</li>
 *   <li><em>borrowed</em>, from {@link DeviceArray#buffer(int)}: a view of an array's buffer, valid while the
 *       array is open; closing it does nothing, and using it after the array closed throws
 *       {@link IllegalStateException}.</li>
 * </ul>
 * Closing is idempotent and may happen on any thread, but only once the work that uses the memory is
 * complete (synchronise the stream, or wait on an event, first). An owned buffer that becomes unreachable
 * without being closed or moved is reported as a leak ({@link Diagnostics#leakedArrays()} counts it) and
 * not freed.
 *
 * <p><b>Copies</b> are enqueued on a stream of the buffer's device and may return before they complete;
 * host memory passed to them must stay valid and unchanged until the stream is synchronised or an event
 * recorded after them completes. Backends without asynchronous copies complete them before returning.
 *
 * <p><b>Threading.</b> Accessors and copies may be called from any thread; closing concurrently with a
 * copy is the caller's race to avoid.
 */
public final class DeviceBuffer implements AutoCloseable {
    private final DeviceType type;
    private final long deviceId;
    private final Supplier<BackendDevice> backend;
    private final Device device;
    private final MemorySegment pointer;
    private final long byteSize;
    private final BooleanSupplier live;
    private final Ownership owner;
    /** For memory from {@link Device#allocate}: its release in stream order, given a stream handle; else null. */
    private final java.util.function.Consumer<MemorySegment> freeAfter;

    private DeviceBuffer(DeviceType type, long deviceId, Supplier<BackendDevice> backend, Device device, MemorySegment pointer,
                         long byteSize, BooleanSupplier live, Runnable release) {
        this(type, deviceId, backend, device, pointer, byteSize, live, release, null);
    }

    private DeviceBuffer(DeviceType type, long deviceId, Supplier<BackendDevice> backend, Device device, MemorySegment pointer,
                         long byteSize, BooleanSupplier live, Runnable release, java.util.function.Consumer<MemorySegment> freeAfter) {
        this.freeAfter = freeAfter;
        this.type = type;
        this.deviceId = deviceId;
        this.backend = backend;
        this.device = device;
        this.pointer = pointer;
        this.byteSize = byteSize;
        this.live = live;
        this.owner = release == null ? null
                : new Ownership(this, release, () -> "DeviceBuffer " + type + ":" + deviceId + " of " + byteSize + " bytes", "DeviceBuffer");
    }

    /** Allocates owned memory on {@code device}. */
    static DeviceBuffer allocate(Device device, long byteSize, long alignment) {
        CheckedBackendDevice backend = CheckedBackendDevice.of(device.backend());
        MemorySegment memory = backend.allocate(byteSize, alignment);
        return new DeviceBuffer(device.type(), device.id(), () -> backend, device, memory, byteSize, () -> true,
                () -> backend.free(memory), stream -> backend.freeAfter(memory, stream));
    }

    /** Wraps caller-owned memory of {@code device} whose {@code release} runs once when its owner lets go. */
    static DeviceBuffer wrap(Device device, MemorySegment pointer, long byteSize, Runnable release) {
        Objects.requireNonNull(pointer, "pointer");
        Objects.requireNonNull(release, "release");
        if (pointer.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("pointer is NULL; an absent buffer needs no memory (ArrayBuilder.absentBuffer())");
        }
        if (!pointer.isNative()) {
            throw new IllegalArgumentException("pointer is Java heap memory, which has no address a device array can hold;"
                    + " wrap native memory (allocate it in an Arena)");
        }
        if (byteSize < -1) {
            throw new IllegalArgumentException("byteSize must be -1 (unknown) or a size: " + byteSize);
        }
        if (pointer.byteSize() != 0 && byteSize > pointer.byteSize()) {
            throw new IllegalArgumentException("byteSize " + byteSize + " is more than the " + pointer.byteSize()
                    + " bytes of the segment given as pointer");
        }
        BackendDevice backend = device.backend();
        return new DeviceBuffer(device.type(), device.id(), () -> backend, device, pointer, byteSize, () -> true, release);
    }

    /** A borrowed view of one buffer of an open array. */
    static DeviceBuffer view(DeviceType type, long deviceId, Supplier<BackendDevice> backend, MemorySegment pointer, long byteSize,
                             BooleanSupplier live) {
        return new DeviceBuffer(type, deviceId, backend, null, pointer, byteSize, live, null);
    }

    /** {@return the device type of the memory} */
    public DeviceType deviceType() {
        return type;
    }

    /** {@return the device id (-1 for the CPU)} */
    public long deviceId() {
        return deviceId;
    }

    /**
     * {@return the raw pointer or handle (see "Pointers" above), borrowed: valid while this buffer is open;
     * {@link MemorySegment#NULL} for an absent buffer (an array without a validity bitmap)}
     * @throws IllegalStateException if this buffer, or the array it views, is closed or moved
     */
    public MemorySegment pointer() {
        checkOpen();
        return pointer;
    }

    /**
     * {@return the size in bytes; for views of an array's buffer, the bytes the array's type, offset and
     * length imply from the buffer's start, or -1 where they depend on device data (the data
     * buffer of strings on a device) or the array does not say}
     */
    public long byteSize() {
        return byteSize;
    }

    /** {@return whether the host can read and write this memory directly} */
    public boolean isHostAccessible() {
        return type.isHostAccessible() && type.pointersAreAddresses();
    }

    /** {@return true for buffers from {@link Device#allocate(long)} or {@link Device#wrap}; false for views} */
    public boolean isOwned() {
        return owner != null;
    }

    /**
     * The memory as a segment the host may read and write, when it is host-accessible and of known size.
     * Reading it before the array's sync event completed, or writing to an array's buffer, is the caller's
     * responsibility (arrays are immutable by the C Data Interface).
     *
     * @return a segment of {@link #byteSize()} bytes, valid while this buffer is open
     * @throws UnsupportedOperationException if the memory is not host-accessible
     * @throws IllegalStateException         if the size is unknown, or this buffer is closed
     */
    public MemorySegment asSegment() {
        checkOpen();
        if (!isHostAccessible()) {
            throw new UnsupportedOperationException(type + " memory is not host-accessible: copy it with copyToHost");
        }
        if (byteSize < 0) {
            throw new IllegalStateException("the size of this " + type + " buffer is unknown (it depends on data)");
        }
        return pointer.equals(MemorySegment.NULL) ? MemorySegment.NULL : Pointers.bytes(pointer, byteSize);
    }

    /**
     * Enqueues a copy of all of {@code source} into this buffer at {@code destinationOffset}.
     *
     * <p>{@code source} may be Java heap memory ({@code MemorySegment.ofArray(long[])}): its bytes are first
     * copied into native memory, which no device reads from the heap, and the call returns once the copy has
     * completed (the staging memory is freed then). Native memory is copied from in place, and the call may
     * return before the copy completes.
     *
     * @param source            host memory to read; valid and unchanged until the copy completes
     * @param destinationOffset byte offset into this buffer
     * @param stream            a stream of this buffer's device
     */
    public void copyFromHost(MemorySegment source, long destinationOffset, DeviceStream stream) {
        checkOpen();
        checkStream(stream);
        checkRange("destinationOffset", destinationOffset, source.byteSize(), byteSize);
        if (source.isNative()) {
            backend.get().copyFromHost(source, pointer, destinationOffset, stream.handle());
            return;
        }
        try (Arena staging = Arena.ofConfined()) {
            MemorySegment copy = staging.allocate(Math.max(1, source.byteSize()), 64).asSlice(0, source.byteSize());
            MemorySegment.copy(source, 0, copy, 0, source.byteSize());
            backend.get().copyFromHost(copy, pointer, destinationOffset, stream.handle());
            backend.get().synchronizeStream(stream.handle());
        }
    }

    /**
     * Enqueues a copy of {@code destination.byteSize()} bytes from this buffer at {@code sourceOffset}.
     *
     * <p>{@code destination} may be Java heap memory ({@code MemorySegment.ofArray(long[])}): the bytes land in
     * native memory first and are copied into it once the copy has completed, before this call returns. Native
     * memory is copied into in place, and the call may return before the copy completes.
     *
     * @param sourceOffset byte offset into this buffer
     * @param destination  host memory to write; valid until the copy completes
     * @param stream       a stream of this buffer's device
     */
    public void copyToHost(long sourceOffset, MemorySegment destination, DeviceStream stream) {
        checkOpen();
        checkStream(stream);
        checkRange("sourceOffset", sourceOffset, destination.byteSize(), byteSize);
        if (destination.isNative()) {
            backend.get().copyToHost(pointer, sourceOffset, destination, stream.handle());
            return;
        }
        try (Arena staging = Arena.ofConfined()) {
            MemorySegment landing = staging.allocate(Math.max(1, destination.byteSize()), 64).asSlice(0, destination.byteSize());
            backend.get().copyToHost(pointer, sourceOffset, landing, stream.handle());
            backend.get().synchronizeStream(stream.handle());
            MemorySegment.copy(landing, 0, destination, 0, destination.byteSize());
        }
    }

    /**
     * Enqueues a copy between two buffers of the same device.
     *
     * @param sourceOffset      byte offset into this buffer
     * @param destination       a buffer of the same device
     * @param destinationOffset byte offset into {@code destination}
     * @param byteCount         bytes to copy
     * @param stream            a stream of that device
     * @throws IllegalArgumentException if {@code destination} is on another device, or a range is outside a buffer
     */
    public void copyTo(long sourceOffset, DeviceBuffer destination, long destinationOffset, long byteCount, DeviceStream stream) {
        checkOpen();
        destination.checkOpen();
        if (!destination.type.equals(type) || destination.deviceId != deviceId) {
            throw new IllegalArgumentException("destination is on " + destination.type + ":" + destination.deviceId
                    + ", this buffer on " + type + ":" + deviceId + "; copy between devices through DeviceArray.copyTo or the host");
        }
        checkStream(stream);
        checkRange("sourceOffset", sourceOffset, byteCount, byteSize);
        checkRange("destinationOffset", destinationOffset, byteCount, destination.byteSize);
        backend.get().copyWithinDevice(pointer, sourceOffset, destination.pointer, destinationOffset, byteCount, stream.handle());
    }

    /** Frees owned memory (or runs its release action) exactly once; does nothing for views; idempotent. */
    @Override
    public void close() {
        if (owner != null) {
            owner.close();
        }
    }

    /**
     * Closes this owned buffer in stream order: the memory goes back to its device's pool (or the release
     * action of wrapped memory runs) once the work enqueued on {@code stream} so far completes, without
     * blocking the calling thread. Use it for temporaries and inputs of work just enqueued. The buffer is
     * closed at once for Java: using it afterwards throws. The memory's release (the pool's free, or the release
     * action given to {@link Device#wrap}) then runs on Quiver's stream-order thread of the device, not the
     * caller's. Where the device has no events, the stream is synchronised and the buffer closed before this
     * returns, on the calling thread. Does nothing for a closed buffer or a view.
     *
     * {@snippet :
     * DeviceBuffer scratch = device.allocate(bytes);
     * // ... enqueue kernels on stream that use scratch ...
     * scratch.closeAfter(stream);   // returns at once; freed when the kernels are done
     * }
     *
     * @param stream a stream of this buffer's device: the work that uses the memory is enqueued on it
     * @throws IllegalArgumentException if {@code stream} belongs to another device
     */
    public void closeAfter(DeviceStream stream) {
        if (owner == null) {
            return;
        }
        checkStream(stream);
        Runnable release = owner.closeDeferred();
        if (release == null) {
            return;
        }
        if (freeAfter != null) {
            freeAfter.accept(stream.handle());
        } else {
            CheckedBackendDevice.of(stream.device().backend()).streamOrder().mark(stream.handle()).then(release);
        }
    }

    /**
     * Takes the memory out of this owned buffer for an array being built: afterwards this object is spent
     * and the returned action, run once by the array's release, frees the memory.
     */
    Runnable moveOut() {
        if (owner == null) {
            throw new IllegalArgumentException("a borrowed buffer view cannot be moved into an array; copy it into an allocated buffer");
        }
        return owner.moveOut();
    }

    /** Checks that this is an open, owned buffer that can move into an array; {@code path} names it. */
    void checkMovable(String path) {
        if (owner == null) {
            throw new IllegalArgumentException(path + " is a borrowed view of another array's buffer; only owned buffers (Device.allocate, Device.wrap) move into an array");
        }
        if (!owner.isOpen()) {
            throw new IllegalArgumentException(path + " is " + owner.stateName() + ": " + owner.description());
        }
    }

    /** @return the device this owned buffer was allocated on; null for views */
    Device device() {
        return device;
    }

    private void checkStream(DeviceStream stream) {
        Objects.requireNonNull(stream, "stream");
        Device of = stream.device();
        if (!of.type().equals(type) || of.id() != deviceId) {
            throw new IllegalArgumentException("stream of " + of.type() + ":" + of.id() + " given for a buffer on " + type + ":" + deviceId);
        }
    }

    private static void checkRange(String name, long offset, long count, long size) {
        if (offset < 0) {
            throw new IllegalArgumentException(name + " is negative: " + offset);
        }
        if (count < 0) {
            throw new IllegalArgumentException("byte count is negative: " + count);
        }
        if (size >= 0 && (offset > size || count > size - offset)) {
            throw new IndexOutOfBoundsException(name + " " + offset + " + " + count + " bytes is past the end of a buffer of " + size + " bytes");
        }
    }

    private void checkOpen() {
        if (owner != null) {
            owner.checkOpen();
        }
        if (!live.getAsBoolean()) {
            throw new IllegalStateException("the array this " + type + " buffer view belongs to is closed");
        }
    }

    @Override
    public String toString() {
        String kind = owner == null ? "view" : owner.isOpen() ? "owned" : owner.stateName();
        return "DeviceBuffer[" + type + ":" + deviceId + ", " + (byteSize < 0 ? "size unknown" : byteSize + " bytes")
                + ", " + kind + "]";
    }
}
