package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.internal.abi.BufferSizes;
import dev.quiver.internal.abi.ArrayData;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.internal.backend.CheckedBackendDevice;
import dev.quiver.internal.backend.HostMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.util.Objects;
import java.util.Optional;

/**
 * The owner of one {@code ArrowDeviceArray} and its schema: Arrow data on some device. A handle: what the array
 * is and holds. Arrays come in and go out through {@link Interchange} (the Arrow C Data interfaces),
 * {@link dev.quiver.dlpack.DLPack} and {@link dev.quiver.cai.CudaArrayInterface}; {@link Copies} copies them.
 *
 * <p><b>Ownership.</b> A DeviceArray owns its structs exclusively. It gets them by <em>moving</em> (the struct
 * is copied bitwise and the source's {@code release} set to NULL, so the producer's struct is left released) and
 * gives them away the same way with {@link Interchange#exportDevice}. {@link #close()} calls the array's and the
 * schema's release callbacks exactly once; it may be called from any thread and any number of times. A
 * DeviceArray that becomes unreachable without being closed is reported as a leak (see {@link Diagnostics}) and
 * its release is <em>not</em> called: the leak check is a safety net that reports, never the release mechanism.
 *
 * <p><b>Threading.</b> Reading accessors may be used from several threads while the array is open. Closing or
 * exporting concurrently with other use is the caller's race to avoid; Quiver guarantees only that release runs
 * once and that use after close fails with {@link IllegalStateException}.
 *
 * <p><b>Read-only arrays.</b> An array imported from a producer that forbids writes (a DLPack tensor flagged
 * {@code READ_ONLY}, a CUDA Array Interface descriptor with {@code readonly} true), or imported with
 * {@link ImportOptions#readOnly(boolean)}, is read-only: {@link #isReadOnly()} says so and every path that would
 * let anyone write to its buffers refuses. Copies are writable. The flag does not travel through
 * {@link Interchange#exportDevice}: arrays of the Arrow C Device Data Interface are immutable by specification.
 *
 * <p><b>Views and references.</b> {@link #slice}, {@link #child(int)} and {@link #dictionary()} return new arrays
 * over this array's buffers (zero-copy, no device access) that hold a reference on it; {@link #retain()} holds one
 * without an array; {@link Interchange#exportShared} hands one to a C consumer. The structs are released once this
 * array and every such reference are closed, in any order, on the thread that closes last. While references are
 * held, {@link Interchange#exportDevice} refuses to move the structs out.
 *
 * <p><b>Validation.</b> Every import checks the structs (counts, lengths, offsets, buffer presence, format
 * strings, nesting depth) without reading buffer contents; faults are reported by {@link InvalidArrowException}
 * naming the field path, after the foreign release has been called.
 *
 * {@snippet class=dev.quiver.snippets.ApiSnippets region=import}
 */
public final class DeviceArray implements AutoCloseable {
    private static final long DEVICE_ARRAY_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();

    final Field field;
    final DeviceType deviceType;
    final long deviceId;
    final Devices devices;
    final SyncEvent syncEvent;
    final boolean readOnly;
    /** The structs' block, the references on it and the open/closed/moved state; what a leak report sees. */
    final ArrayState state;
    /** Whether the contents are known valid: written by Quiver from Java values, or passed validateFull. */
    volatile boolean contentsVerified;
    /** Whether full validation checks decimals against their precision ({@link ImportOptions#decimalPrecision}). */
    volatile boolean decimalPrecisionChecked = true;

    /** Takes ownership of {@code block}, which holds a validated ArrowDeviceArray (and its ArrowSchema after it if {@code hasSchema}). */
    DeviceArray(long block, boolean hasSchema, Field field, Devices devices, boolean readOnly) {
        this.readOnly = readOnly;
        this.field = field;
        this.devices = devices;
        this.deviceType = DeviceType.of(RawMemory.getInt(block + ArrowDeviceArrayLayout.DEVICE_TYPE));
        this.deviceId = RawMemory.getLong(block + ArrowDeviceArrayLayout.DEVICE_ID);
        this.state = new ArrayState(this, block, hasSchema, deviceType, deviceId, field.name());
        long event = RawMemory.getAddress(block + ArrowDeviceArrayLayout.SYNC_EVENT);
        this.syncEvent = event == 0 ? null : SyncEvent.ofArray(deviceType, deviceId, MemorySegment.ofAddress(event),
                () -> devices.get(deviceType, deviceId).backend(), () -> state.state() == ArrayState.OPEN);
    }

    /** {@return the field (type, name, nullability, children) of this array} */
    public Field field() {
        return field;
    }

    /** {@return the device type of the memory the buffers point to} */
    public DeviceType deviceType() {
        return deviceType;
    }

    /** {@return the device id ({@code -1} for the CPU by convention)} */
    public long deviceId() {
        return deviceId;
    }

    /** {@return the number of elements (the top-level {@code length})} */
    public long length() {
        return RawMemory.getLong(arrayAddress() + ArrowArrayLayout.LENGTH);
    }

    /** {@return the top-level {@code null_count} (-1 if the producer did not compute it)} */
    public long nullCount() {
        return RawMemory.getLong(arrayAddress() + ArrowArrayLayout.NULL_COUNT);
    }

    /**
     * The device this array's memory is on, among the {@link Devices} it was imported or built with: for the CPU,
     * {@link Devices#cpu()}. An array on a device no chosen backend serves can still be imported, exported and
     * validated, but has no {@code Device}.
     *
     * @return the device
     * @throws NoBackendException naming the device type and id, and why no backend serves them
     */
    public Device device() {
        return deviceType.equals(DeviceType.CPU) ? devices.cpu() : devices.get(deviceType, deviceId);
    }

    /** {@return true if the producer of this array's memory forbids writes to it} */
    public boolean isReadOnly() {
        return readOnly;
    }

    /**
     * Called by every path that writes to this array's buffers or hands them to someone who may write.
     *
     * @throws ReadOnlyArrayException if this array is read-only
     * @throws IllegalStateException  if it is closed or exported
     */
    void checkWritable() {
        checkOpen();
        if (readOnly) {
            throw new ReadOnlyArrayException(state.description() + " is read-only: its producer forbids writes to its memory; copy it (Copies.toDevice) to get a writable array");
        }
    }

    /** {@return the sync event that guards this array's data, if the producer set one} */
    public Optional<SyncEvent> syncEvent() {
        checkOpen();
        return Optional.ofNullable(syncEvent);
    }

    /** @return the {@code struct ArrowDeviceArray} this object owns, borrowed ({@link Interchange#struct}) */
    MemorySegment struct() {
        checkOpen();
        return Pointers.bytes(MemorySegment.ofAddress(state.block), DEVICE_ARRAY_SIZE);
    }

    /** @return the embedded {@code struct ArrowArray}, borrowed ({@link Interchange#arrowArray}) */
    MemorySegment arrowArray() {
        checkOpen();
        return Pointers.struct(MemorySegment.ofAddress(state.block + ArrowDeviceArrayLayout.ARRAY), ArrowArrayLayout.LAYOUT);
    }

    /** @return the address of the embedded {@code struct ArrowArray}, once checked open */
    private long arrayAddress() {
        checkOpen();
        return state.block + ArrowDeviceArrayLayout.ARRAY;
    }

    /** @return the {@code sync_event} pointer, NULL if none */
    MemorySegment syncEventPointer() {
        return syncEvent == null ? MemorySegment.NULL : syncEvent.pointer();
    }

    /** {@return the top-level {@code offset}: the first slot of the buffers this array uses} */
    public long offset() {
        return RawMemory.getLong(arrayAddress() + ArrowArrayLayout.OFFSET);
    }

    /** {@return the top-level {@code n_buffers}} */
    public int bufferCount() {
        return (int) RawMemory.getLong(arrayAddress() + ArrowArrayLayout.N_BUFFERS);
    }

    /**
     * A borrowed view of {@code buffers[i]}: valid while this array is open (using it afterwards throws
     * {@link IllegalStateException}); closing it does nothing. Its {@link DeviceBuffer#byteSize()} is what
     * the type, {@link #offset()} and {@link #length()} imply from the buffer's start (so slot
     * {@code offset() + j} is element {@code j}); for the data buffer of strings and binaries and the
     * variadic buffers of views it is known only for CPU arrays (read from the offsets or sizes), -1
     * elsewhere. No device memory is read and nothing waits.
     *
     * @param i a buffer index, {@code 0 <= i < bufferCount()}
     * @return the view
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public DeviceBuffer buffer(int i) {
        MemorySegment array = arrowArray();
        int count = bufferCount();
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("buffer " + i + " of " + state.description() + ", which has " + count);
        }
        MemorySegment pointer = ArrayData.bufferPointer(array, i);
        long size = BufferSizes.impliedSize(array, field, i, deviceType.equals(DeviceType.CPU));
        return DeviceBuffer.view(deviceType, deviceId, this::memoryBackend, pointer, size, () -> state.state() == ArrayState.OPEN);
    }

    /** {@return the top-level {@code n_children}} */
    public int childCount() {
        return (int) RawMemory.getLong(arrayAddress() + ArrowArrayLayout.N_CHILDREN);
    }

    /**
     * Child {@code i} as this array sees it, as a new DeviceArray that shares this array's memory (zero-copy)
     * and keeps it alive until closed. For struct, sparse union and fixed-size list arrays the child is
     * restricted to this array's offset and length (element {@code j} of a struct's child is the member of
     * row {@code j}); for the others (lists, maps, list views, dense unions, run-end encoded arrays) it is
     * the whole child, which this array's offsets, sizes or run ends index. The parent's validity is not
     * applied to the child. The child carries this array's {@code sync_event}.
     *
     * @param i a child index, {@code 0 <= i < childCount()}
     * @return the child, owned by the caller, who closes it
     * @throws IndexOutOfBoundsException if {@code i} is out of range
     */
    public DeviceArray child(int i) {
        return view(ArrayViews.child(arrowArray(), field, i, state.description()), field.children().get(i));
    }

    /**
     * {@return the dictionary of a dictionary-encoded array, as a new DeviceArray sharing this array's memory
     * and keeping it alive until closed (owned by the caller); empty for other arrays}
     */
    public Optional<DeviceArray> dictionary() {
        ArrayData dictionary = ArrayViews.dictionary(arrowArray(), field);
        return dictionary == null ? Optional.empty() : Optional.of(view(dictionary, field.dictionary().values()));
    }

    /**
     * A zero-copy slice: elements {@code [offset, offset + length)} of this array. Only structs are written:
     * no device memory is read or written and nothing waits. The slice shares this array's buffers, keeps
     * them alive until it is closed, carries this array's {@code sync_event}, and is an array like any other
     * (it exports, copies only its own bytes, and slices again). Its {@code null_count} is 0 if this array's
     * is, else -1 (unknown). To copy a range, copy a slice of it and close the slice at once: the copy keeps
     * what it still reads alive.
     *
     * @param offset the first element, {@code 0 <= offset <= length()}
     * @param length the number of elements, {@code 0 <= length <= length() - offset}
     * @return the slice, owned by the caller, who closes it
     * @throws IndexOutOfBoundsException if the range is not inside this array
     */
    public DeviceArray slice(long offset, long length) {
        return view(ArrayViews.slice(arrowArray(), field, offset, length, state.description()), field);
    }

    /** Writes {@code data} (describing memory of this array) as a new array that holds a reference on this one. */
    private DeviceArray view(ArrayData data, Field viewField) {
        acquireReference();
        return adopt(ArrayViews.write(data, deviceType, deviceId, syncEventPointer(), state), viewField, readOnly);
    }

    /**
     * Wraps a block Quiver wrote from this array's validated parts (a view, a copy) as a new array that knows
     * what this one knows of its contents; if that fails, the block's structs are released.
     */
    DeviceArray adopt(long block, Field blockField, boolean blockReadOnly) {
        DeviceArray array;
        try {
            array = new DeviceArray(block, false, blockField, devices, blockReadOnly);
        } catch (RuntimeException | Error e) {
            ArrayState.releaseQuietly(block, false, e);
            throw e;
        }
        array.contentsVerified = contentsVerified;
        array.decimalPrecisionChecked = decimalPrecisionChecked;
        return array;
    }

    /**
     * Takes a reference that keeps this array's memory alive, for asynchronous work that reads it (a kernel
     * still running) past the point where the array's owner closes it. The structs are released when this
     * array and every reference (and every slice, child and shared export) are closed, in any order, on
     * the thread that closes last.
     *
     * @return the reference, owned by the caller, who closes it exactly once (further closes do nothing)
     * @throws IllegalStateException if this array is closed or moved
     */
    public KeepAlive retain() {
        acquireReference();
        return new KeepAlive(state);
    }

    void acquireReference() {
        if (!state.acquire()) {
            throw new IllegalStateException(state.description() + " is " + state.endedAs());
        }
    }

    /** @return the backend that reads and writes this array's memory; the host device for CPU arrays */
    BackendDevice memoryBackend() {
        return deviceType.equals(DeviceType.CPU) ? HostMemory.device() : device().backend();
    }

    /** {@return true once closed or exported} */
    public boolean isClosed() {
        return state.state() != ArrayState.OPEN;
    }

    /**
     * Closes this array in stream order: once the work enqueued on {@code stream} so far completes (a kernel
     * that reads this array, a copy from it), without blocking the calling thread. Do not use the array after
     * this call: its release callbacks run on Quiver's stream-order thread of that device then. Where the device
     * has no events, the stream is synchronised and the array closed before this returns.
     *
     * @param stream the stream whose enqueued work reads this array, of any device
     */
    public void closeAfter(DeviceStream stream) {
        Objects.requireNonNull(stream, "stream");
        CheckedBackendDevice.of(stream.device().backend()).streamOrder().mark(stream.handle()).then(this::close);
    }

    /** Calls the array's and the schema's release callbacks, exactly once; any thread; idempotent. */
    @Override
    public void close() {
        state.close();
        // the array stays reachable until its state has left OPEN, so the leak check never sees it half closed
        Reference.reachabilityFence(this);
    }

    /** @return the device type and id, as events name them: {@code CUDA:0} */
    String deviceLabel() {
        return deviceType + ":" + deviceId;
    }

    void checkOpen() {
        int value = state.state();
        if (value != ArrayState.OPEN) {
            throw new IllegalStateException(state.description() + " is " + (value == ArrayState.MOVED ? "moved out (exported)" : "closed"));
        }
    }

    /**
     * @return the device, field and top-level counts of this array, for example
     *         {@code DeviceArray OPENCL:0 "x" l, length 1000, offset 8, null_count 3, 2 buffers, 0 children, sync_event};
     *         never reads device memory
     */
    @Override
    public String toString() {
        if (isClosed()) {
            return state.description() + " (" + state.endedAs() + ")";
        }
        return state.description() + " " + field.type().format() + (field.dictionary() == null ? "" : " dictionary " + field.dictionary().values().type().format())
                + ", length " + length() + ", offset " + offset() + ", null_count " + nullCount() + ", " + bufferCount() + " buffers, "
                + childCount() + " children" + (syncEvent == null ? "" : ", sync_event") + (readOnly ? ", read-only" : "");
    }
}
