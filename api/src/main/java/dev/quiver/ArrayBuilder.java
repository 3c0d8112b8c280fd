package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.internal.abi.ArrayData;
import dev.quiver.internal.validate.ArrayValidator;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Builds a {@link DeviceArray} from memory the caller holds: buffers (owned ones move in), children and a
 * dictionary (arrays that move in), length, null count, offset and an optional sync event. The result is
 * written by the same struct writer every array Quiver makes goes through, so it exports like any array:
 * release callbacks, {@code private_data}, {@code reserved} zeroed, {@code sync_event} set.
 *
 * {@snippet class=dev.quiver.snippets.ApiSnippets region=build}
 *
 * <p><b>Ownership.</b> Nothing moves until {@link #build()} succeeds: it checks every part first (devices,
 * counts against the type, sizes of buffers whose size is known, the structure as an import would), and on
 * failure throws while the caller still owns everything it passed. After a successful build, owned buffers,
 * children, the dictionary and the event belong to the array: its release (when the array and every view of
 * it are closed, or when a consumer releases its export) frees the buffers, closes the children and the
 * dictionary and destroys the event, once, on the releasing thread. Borrowed buffer views (from another
 * array's {@link DeviceArray#buffer(int)}) are refused by {@link #buffer}: share them with
 * {@link #sharedBuffer(DeviceArray, int)}, which keeps the other array alive, or copy them.
 *
 * <p><b>Threading.</b> A builder is for one thread and one {@code build()}.
 */
public final class ArrayBuilder {
    private final Field field;
    private final Device device;
    private final List<DeviceBuffer> buffers = new ArrayList<>();
    private final List<DeviceArray> children = new ArrayList<>();
    private final List<AutoCloseable> keptAlive = new ArrayList<>();
    /** The arrays {@link #sharedBuffer} shares buffers of, retained on build. */
    private final List<DeviceArray> sharedFrom = new ArrayList<>();
    /** The wrappers {@link #sharedBuffer} made; closed (releasing nothing) if the build fails. */
    private final List<DeviceBuffer> sharedBuffers = new ArrayList<>();
    private DeviceArray dictionary;
    private SyncEvent syncEvent;
    private long length = -1;
    private long nullCount = -1;
    private long offset;
    private boolean built;

    ArrayBuilder(Field field, Device device) {
        this.field = Objects.requireNonNull(field, "field");
        this.device = Objects.requireNonNull(device, "device");
    }

    /**
     * Starts building an array on {@code device} from buffers, children and a dictionary.
     *
     * @param field  the field of the array to build (type, name, children, dictionary)
     * @param device the device every buffer, child and event belongs to
     * @return a new builder, for use by one thread
     */
    public static ArrayBuilder of(Field field, Device device) {
        return new ArrayBuilder(field, device);
    }

    /**
     * {@return this builder}
     * @param length the number of elements (required)
     */
    public ArrayBuilder length(long length) {
        this.length = length;
        return this;
    }

    /**
     * {@return this builder}
     * @param nullCount the number of nulls, or -1 if not computed (the default)
     */
    public ArrayBuilder nullCount(long nullCount) {
        this.nullCount = nullCount;
        return this;
    }

    /**
     * {@return this builder}
     * @param offset the first slot of the buffers the array uses (default 0)
     */
    public ArrayBuilder offset(long offset) {
        this.offset = offset;
        return this;
    }

    /**
     * Appends the next buffer, in the order the type's layout gives (validity bitmap first where it has
     * one). An owned buffer moves into the array on {@link #build()}.
     *
     * @param buffer an owned buffer of this builder's device
     * @return this builder
     */
    public ArrayBuilder buffer(DeviceBuffer buffer) {
        buffers.add(Objects.requireNonNull(buffer, "buffer; use absentBuffer() for a NULL slot"));
        return this;
    }

    /**
     * Appends, zero-copy, buffer {@code index} of another array on this builder's device: the built array shares
     * that memory and keeps {@code owner}'s memory alive (a {@link DeviceArray#retain() reference} taken by
     * {@link #build()}) until it is released. The caller keeps {@code owner} and may close it at once after the
     * build. A NULL buffer (an absent validity bitmap) appends a NULL slot.
     *
     * {@snippet :
     * // the values of `input` with a validity bitmap the kernel computed
     * DeviceArray out = ArrayBuilder.of(input.field(), device).length(input.length()).offset(input.offset())
     *         .buffer(validity)              // allocated: moves in
     *         .sharedBuffer(input, 1)        // input's values: shared, input kept alive
     *         .build();
     * }
     *
     * @param owner an open array on this builder's device
     * @param index a buffer index of {@code owner}, {@code 0 <= index < owner.bufferCount()}
     * @return this builder
     * @throws IllegalArgumentException  if {@code owner} is on another device, or the buffer's size is not
     *                                   known without reading device memory (use
     *                                   {@link #sharedBuffer(DeviceArray, int, long)})
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     * @throws IllegalStateException     if {@code owner} is closed or moved
     */
    public ArrayBuilder sharedBuffer(DeviceArray owner, int index) {
        DeviceBuffer view = Objects.requireNonNull(owner, "owner").buffer(index);
        if (view.pointer().equals(MemorySegment.NULL)) {
            return absentBuffer();
        }
        if (view.byteSize() < 0) {
            throw new IllegalArgumentException("the size of buffers[" + index + "] of " + owner
                    + " is not known without reading device memory: give it to sharedBuffer(owner, index, byteSize)");
        }
        return sharedBuffer(owner, index, view.byteSize());
    }

    /**
     * As {@link #sharedBuffer(DeviceArray, int)}, for a buffer whose size the caller knows (the data of strings
     * on a device, whose size the offsets in device memory hold).
     *
     * @param owner    an open array on this builder's device
     * @param index    a buffer index of {@code owner}
     * @param byteSize the bytes of the buffer the built array may read, from its start
     * @return this builder
     * @throws IllegalArgumentException  if {@code owner} is on another device, its buffer is NULL, or
     *                                   {@code byteSize} is negative or larger than the buffer's known size
     * @throws IndexOutOfBoundsException if {@code index} is out of range
     * @throws IllegalStateException     if {@code owner} is closed or moved
     */
    public ArrayBuilder sharedBuffer(DeviceArray owner, int index, long byteSize) {
        DeviceBuffer view = Objects.requireNonNull(owner, "owner").buffer(index);
        if (!owner.deviceType().equals(device.type()) || owner.deviceId() != device.id()) {
            throw new IllegalArgumentException("buffers[" + index + "] of " + owner + " is memory of " + owner.deviceType() + ":"
                    + owner.deviceId() + ", not of this builder's device " + device.type() + ":" + device.id());
        }
        if (view.pointer().equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("buffers[" + index + "] of " + owner + " is NULL: use absentBuffer()");
        }
        if (byteSize < 0 || view.byteSize() >= 0 && byteSize > view.byteSize()) {
            throw new IllegalArgumentException("byteSize " + byteSize + " of buffers[" + index + "] of " + owner
                    + (byteSize < 0 ? " is negative" : " is more than its " + view.byteSize() + " bytes"));
        }
        DeviceBuffer shared = device.wrap(view.pointer(), byteSize, () -> { });
        buffers.add(shared);
        sharedFrom.add(owner);
        sharedBuffers.add(shared);
        return this;
    }

    /**
     * Appends a NULL buffer slot: an absent validity bitmap (no nulls), or an absent buffer of an empty array.
     *
     * @return this builder
     */
    public ArrayBuilder absentBuffer() {
        buffers.add(null);
        return this;
    }

    /**
     * Appends the next child; it moves into the array on {@link #build()} (the caller's object is closed
     * then, and the array's release releases the child).
     *
     * @param child an open array of this builder's device, of the type the field gives for that child
     * @return this builder
     */
    public ArrayBuilder child(DeviceArray child) {
        children.add(Objects.requireNonNull(child, "child"));
        return this;
    }

    /**
     * Sets the dictionary of a dictionary-encoded field; it moves into the array on {@link #build()}.
     *
     * @param dictionary an open array of this builder's device, of the field's dictionary value type
     * @return this builder
     */
    public ArrayBuilder dictionary(DeviceArray dictionary) {
        this.dictionary = Objects.requireNonNull(dictionary, "dictionary");
        return this;
    }

    /**
     * Sets the event that completes when the array's data (children and dictionary included) is ready. It
     * becomes the array's {@code sync_event} and moves in on {@link #build()}; the array's release destroys it.
     *
     * @param event an owned event of this builder's device ({@link DeviceStream#recordEvent()},
     *              {@link Device#adoptEvent} with {@code owned} true)
     * @return this builder
     */
    public ArrayBuilder syncEvent(SyncEvent event) {
        this.syncEvent = Objects.requireNonNull(event, "event");
        return this;
    }

    /**
     * Ties another resource's life to the array: {@code resource} is closed by the array's release, after
     * its buffers are freed (an input the array's producing kernel read, a temporary the array's data still
     * depends on, the array a borrowed buffer view came from). If the build fails, the caller still owns it.
     *
     * {@snippet :
     * DeviceArray input = ...;
     * DeviceArray out = ArrayBuilder.of(field, device).length(n)
     *         .buffer(device.wrap(input.buffer(1).pointer(), bytes, () -> { }))   // a view of input's memory
     *         .keepAlive(input)                                                  // input lives as long as out
     *         .build();
     * }
     *
     * @param resource closed once, on the thread that releases the array; what it throws is reported as a
     *                 release failure
     * @return this builder
     */
    public ArrayBuilder keepAlive(AutoCloseable resource) {
        keptAlive.add(Objects.requireNonNull(resource, "resource"));
        return this;
    }

    /**
     * Checks every part, then builds the array and moves the parts in (see "Ownership" above).
     *
     * @return the array, owned by the caller
     * @throws IllegalArgumentException if a part is of another device, borrowed, closed, or does not match
     *                                  the type (a buffer too small for offset + length, a child of another
     *                                  type); nothing moved
     * @throws InvalidArrowException    if the structure is invalid (counts, lengths, offsets), naming the
     *                                  field path; nothing moved
     * @throws IllegalStateException    if this builder already built
     */
    public DeviceArray build() {
        try {
            return buildChecked();
        } catch (RuntimeException e) {
            if (!built) {
                sharedBuffers.forEach(DeviceBuffer::close);
                sharedBuffers.clear();
            }
            throw e;
        }
    }

    private DeviceArray buildChecked() {
        if (built) {
            throw new IllegalStateException("this builder already built an array; use a new builder");
        }
        if (length < 0) {
            throw new IllegalArgumentException("length is " + (length == -1 ? "not set" : "negative: " + length));
        }
        if (offset < 0) {
            throw new IllegalArgumentException("offset is negative: " + offset);
        }
        BuildParts.check(field, device, buffers, children, dictionary, syncEvent, offset, length);
        List<MemorySegment> pointers = new ArrayList<>(buffers.size());
        for (DeviceBuffer buffer : buffers) {
            pointers.add(buffer == null ? MemorySegment.NULL : buffer.pointer());
        }
        List<ArrayData> childData = new ArrayList<>(children.size());
        for (DeviceArray child : children) {
            childData.add(ArrayData.viewOf(child.arrowArray()));
        }
        ArrayData dictionaryData = dictionary == null ? null : ArrayData.viewOf(dictionary.arrowArray());
        ArrayData data = new ArrayData(length, nullCount, offset, pointers, childData, dictionaryData);
        MemorySegment eventPointer = syncEvent == null ? MemorySegment.NULL : syncEvent.pointer();

        AtomicReference<Runnable> release = new AtomicReference<>(() -> { });
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment written = scratch.allocate(ArrowDeviceArrayLayout.LAYOUT);
            StructWriter.writeDeviceArray(written, data, device.type().code(), device.id(), eventPointer,
                    () -> release.get().run());
            try {
                ArrayValidator.validate(written.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize()), field, InvalidArrowException::new);
            } catch (RuntimeException e) {
                releaseWritten(written, e);
                throw e;
            }
            boolean readOnly = children.stream().anyMatch(DeviceArray::isReadOnly) || dictionary != null && dictionary.isReadOnly();
            List<KeepAlive> references = retainShared(written);
            keptAlive.addAll(references);
            release.set(takeParts());
            built = true;
            return ArrayImports.adoptWritten(written, field, device.devices(), readOnly);
        }
    }

    /** Takes a reference to each array a buffer is shared from; on failure lets go of those taken, and of the structs. */
    private List<KeepAlive> retainShared(MemorySegment written) {
        List<KeepAlive> references = new ArrayList<>();
        try {
            for (DeviceArray owner : sharedFrom) {
                references.add(owner.retain());
            }
            return references;
        } catch (RuntimeException e) {
            references.forEach(KeepAlive::close);
            releaseWritten(written, e);
            throw e;
        }
    }

    /** Moves every part in; returns what the array's release runs. Cannot fail after the checks passed. */
    private Runnable takeParts() {
        List<Runnable> frees = new ArrayList<>();
        for (DeviceBuffer buffer : buffers) {
            if (buffer != null) {
                frees.add(buffer.moveOut());
            }
        }
        for (DeviceArray child : children) {
            frees.add(moveIn(child));
        }
        if (dictionary != null) {
            frees.add(moveIn(dictionary));
        }
        if (syncEvent != null) {
            frees.add(syncEvent.moveOut());
        }
        for (AutoCloseable resource : List.copyOf(keptAlive)) {
            frees.add(() -> {
                try {
                    resource.close();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException("closing a resource kept alive by an array failed", e);
                }
            });
        }
        return () -> {
            RuntimeException first = null;
            for (Runnable free : frees) {
                try {
                    free.run();
                } catch (RuntimeException e) {
                    if (first == null) {
                        first = e;
                    } else {
                        first.addSuppressed(e);
                    }
                }
            }
            if (first != null) {
                throw first;
            }
        };
    }

    private static Runnable moveIn(DeviceArray array) {
        KeepAlive memory = array.retain();
        array.close();
        return memory::close;
    }

    private static void releaseWritten(MemorySegment written, RuntimeException primary) {
        try {
            ReleaseCallbacks.releaseArrayStruct(written);
        } catch (RuntimeException e) {
            primary.addSuppressed(e);
        }
    }
}
