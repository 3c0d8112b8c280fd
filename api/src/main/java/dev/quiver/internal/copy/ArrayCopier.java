package dev.quiver.internal.copy;

import dev.quiver.internal.backend.Capabilities;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.internal.abi.ArrayData;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.internal.backend.CheckedBackendDevice;
import dev.quiver.internal.backend.HostMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * Copies a validated ArrowArray tree to a target device through the SPI and exports the copy as an
 * ArrowDeviceArray whose release frees the target allocations (and its event) through the target backend.
 *
 * <p>Only the slots an array uses are copied: a slice copies its own range of every buffer, never its
 * parent's, with offsets re-based so that they start at zero. Sizes come from type, offset and length;
 * where they depend on data (offsets, variadic buffer sizes) the copier plans level by level, reading all
 * such values of one nesting level from the source with a single synchronisation. The caller has honoured
 * the source's sync event. Work is ordered on {@code stream}; copies that read host memory complete before
 * {@link #copy} returns, unless the caller lets them finish in stream order (the {@code afterReads} overload).
 * Target memory, and host memory the copier writes for uploads, come from the devices' pools.
 *
 * <p>Kept whole (their contents are positions that would need rewriting): the children of list views and
 * dense unions, the values and run ends of run-end encoded arrays, the variadic buffers of views, and
 * dictionaries.
 */
public final class ArrayCopier {
    private static final long ALIGNMENT = 64;
    private static final AtomicLong BYTES_MOVED = new AtomicLong();
    private static final BackendDevice HOST = HostMemory.device();

    private final BackendDevice source;
    private final BackendDevice target;
    private final MemorySegment stream;
    private final Arena staging = Arena.ofConfined();
    private final List<MemorySegment> allocations = new ArrayList<>();
    /** Host memory (from the host pool) that uploads read: freed when they complete. */
    private final List<MemorySegment> uploadStaging = new ArrayList<>();
    private boolean readsHostMemory;
    /** Bytes allocated on the target for the copy's buffers. */
    private long allocated;

    private ArrayCopier(BackendDevice source, BackendDevice target, MemorySegment stream) {
        this.source = source;
        this.target = target;
        this.stream = stream;
    }

    /** @return bytes moved between memories by copies since start (staged reads and writes to targets) */
    public static long bytesMoved() {
        return BYTES_MOVED.get();
    }

    /**
     * @param array  the source ArrowArray (80 bytes), validated against {@code field}
     * @param field  its field
     * @param source the backend of the source memory (the host device for CPU arrays)
     * @param target the backend to copy to
     * @param stream a stream of {@code target}
     * @param out    128 bytes to receive the exported copy
     * @return the bytes allocated on the target for the copy's buffers
     */
    public static long copy(MemorySegment array, Field field, BackendDevice source, BackendDevice target,
                            MemorySegment stream, MemorySegment out) {
        return copy(array, field, source, target, stream, out, () -> { });
    }

    /**
     * Copies as {@link #copy(MemorySegment, Field, BackendDevice, BackendDevice, MemorySegment, MemorySegment)}
     * and runs {@code onRelease} once when the copy is released (after its own allocations are freed), for
     * a source that must stay alive while the copy's work may still read it. If the copy fails, the caller
     * still owns {@code onRelease}.
     *
     * @return the bytes allocated on the target for the copy's buffers
     */
    public static long copy(MemorySegment array, Field field, BackendDevice source, BackendDevice target,
                            MemorySegment stream, MemorySegment out, Runnable onRelease) {
        return copy(array, field, source, target, stream, out, onRelease, null);
    }

    /**
     * Copies as {@link #copy(MemorySegment, Field, BackendDevice, BackendDevice, MemorySegment, MemorySegment, Runnable)}.
     * With {@code afterReads} given, copies from host memory to a device with events do not block: the host
     * memory they read (the source's, and the copier's own staging) must stay valid until they complete, so
     * the copier frees its staging and runs {@code afterReads} in stream order, once the copy's work
     * completes; where the copy completed before returning, it runs {@code afterReads} before returning. If the
     * copy fails, the caller still owns {@code afterReads}.
     *
     * @param afterReads what lets go of the source once the copy no longer reads it, or null to block until
     *                   copies from host memory complete
     * @return the bytes allocated on the target for the copy's buffers
     */
    public static long copy(MemorySegment array, Field field, BackendDevice source, BackendDevice target,
                            MemorySegment stream, MemorySegment out, Runnable onRelease, Runnable afterReads) {
        ArrayCopier copier = new ArrayCopier(source, target, stream);
        // the sync_event slot, in C heap memory that the release callback frees from any thread
        MemorySegment syncEvent = MemorySegment.NULL;
        MemorySegment event = MemorySegment.NULL;
        try (copier.staging) {
            long offset = array.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
            CopyPlan root = new CopyPlan(array, field, offset, offset + array.get(JAVA_LONG, ArrowArrayLayout.LENGTH));
            copier.plan(root);
            ArrayData data = copier.copyNode(root);
            DeviceEvents events = target.capability(DeviceEvents.class).orElse(null);
            boolean inStreamOrder = afterReads != null && copier.readsHostMemory && events != null;
            if (events != null) {
                event = events.recordNewEvent(stream);
                syncEvent = NativeHeap.calloc(ADDRESS.byteSize());
                syncEvent.set(ADDRESS, 0, event);
                if (copier.readsHostMemory && !inStreamOrder) {
                    // the copy's own event says when the uploads are done: one wait, no extra flush of the stream
                    events.waitEvent(event);
                }
            } else {
                target.synchronizeStream(stream);
            }
            MemorySegment ownedEvent = event;
            MemorySegment ownedSlot = syncEvent;
            List<MemorySegment> owned = List.copyOf(copier.allocations);
            StructWriter.writeDeviceArray(out, data, target.deviceType(), target.deviceId(), syncEvent, () -> {
                try {
                    if (!ownedEvent.equals(MemorySegment.NULL)) {
                        events.destroyEvent(ownedEvent);
                    }
                    owned.forEach(target::free);
                } finally {
                    if (!ownedSlot.equals(MemorySegment.NULL)) {
                        NativeHeap.free(ownedSlot);
                    }
                    onRelease.run();
                }
            });
            List<MemorySegment> uploads = List.copyOf(copier.uploadStaging);
            Runnable letGo = () -> {
                try {
                    uploads.forEach(HOST::free);
                } finally {
                    if (afterReads != null) {
                        afterReads.run();
                    }
                }
            };
            if (inStreamOrder) {
                CheckedBackendDevice.of(target).streamOrder().mark(stream).then(letGo);
            } else {
                letGo.run();
            }
            return copier.allocated;
        } catch (RuntimeException | Error e) {
            try {
                target.synchronizeStream(stream);
                if (!event.equals(MemorySegment.NULL)) {
                    Capabilities.events(target).destroyEvent(event);
                }
                copier.allocations.forEach(target::free);
                copier.uploadStaging.forEach(HOST::free);
                if (!syncEvent.equals(MemorySegment.NULL)) {
                    NativeHeap.free(syncEvent);
                }
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    /**
     * @param field a field
     * @return true if copying an array of it reads nothing from the source's data on the host: no offsets
     *         to re-base, no sizes of views, anywhere in the tree (dictionaries included)
     */
    public static boolean sizesKnownWithoutData(Field field) {
        BufferLayout layout = BufferLayout.of(field.type());
        if (layout.variadic()) {
            return false;
        }
        for (BufferLayout.Buffer buffer : layout.buffers()) {
            if (buffer.kind() == BufferLayout.Kind.OFFSETS || buffer.kind() == BufferLayout.Kind.SIZES) {
                return false;
            }
        }
        for (Field child : field.children()) {
            if (!sizesKnownWithoutData(child)) {
                return false;
            }
        }
        return field.dictionary() == null || sizesKnownWithoutData(field.dictionary().values());
    }

    /**
     * Contents a copy would follow outside the array (list offsets past their child): the copy is refused before any
     * byte moves. The API turns it into its invalid-data exception.
     */
    public static final class UncheckedContents extends RuntimeException {
        private final String path;
        private final String rule;

        UncheckedContents(String path, String rule) {
            super(path + ": " + rule);
            this.path = path;
            this.rule = rule;
        }

        /** {@return the field path of what was wrong} */
        public String path() {
            return path;
        }

        /** {@return the rule broken} */
        public String rule() {
            return rule;
        }
    }

    /** Plans the tree level by level: one read-back synchronisation per level, none for host sources. */
    private void plan(CopyPlan root) {
        List<CopyPlan> level = List.of(root);
        while (!level.isEmpty()) {
            boolean pending = false;
            for (CopyPlan p : level) {
                pending |= stageOffsets(p);
            }
            if (pending) {
                source.synchronizeStream(source.defaultStream());
            }
            List<CopyPlan> next = new ArrayList<>();
            for (CopyPlan p : level) {
                planChildren(p);
                next.addAll(p.children);
                if (p.dictionary != null) {
                    next.add(p.dictionary);
                }
            }
            level = next;
        }
    }

    /** Reads the offsets (and variadic sizes) a node's copy depends on; true if a device read is in flight. */
    private boolean stageOffsets(CopyPlan p) {
        boolean pending = false;
        int width = p.offsetBytes();
        if (width > 0 && !p.pointer(1).equals(MemorySegment.NULL)) {
            p.offsets = read(p.pointer(1), p.base() * width, (p.end - p.base() + 1) * width);
            pending = !sourceIsHost();
        }
        if (p.layout.variadic()) {
            long variadic = p.nBuffers - p.layout.bufferCount() - 1;
            p.variadicSizes = read(p.pointer((int) p.nBuffers - 1), 0, variadic * 8);
            pending |= !sourceIsHost();
        }
        return pending;
    }

    private void planChildren(CopyPlan p) {
        long n = p.array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        ArrowType type = p.field.type();
        for (int k = 0; k < n; k++) {
            MemorySegment child = p.child(k);
            long childOffset = child.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
            long start;
            long end;
            if (type instanceof ArrowType.Struct || type instanceof ArrowType.Union u && u.mode() == ArrowType.UnionMode.SPARSE) {
                start = childOffset + p.base();
                end = childOffset + p.end;
            } else if (type instanceof ArrowType.FixedSizeList l) {
                start = childOffset + p.base() * l.listSize();
                end = childOffset + p.end * l.listSize();
            } else if (p.offsetBytes() > 0) {
                boolean empty = p.offsets == null;
                long first = empty ? 0 : p.offsetAt(p.base());
                long last = empty ? 0 : p.offsetAt(p.end);
                long childLength = child.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
                if (first < 0 || last < first || last > childLength) {
                    // never size a copy by offsets that reach past the child: unchecked contents (a producer trusted,
                    // memory another process rewrote) must fail here, not read past the child's buffers
                    throw new UncheckedContents(p.field.name() + ".offsets", "offsets " + first + ".." + last
                            + " of slots " + p.base() + ".." + p.end + " are not within the child's " + childLength
                            + " elements; validate the array (Interchange.validateFull) to find the slot");
                }
                start = childOffset + first;
                end = childOffset + last;
            } else {
                start = childOffset;
                end = childOffset + child.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
            }
            p.children.add(new CopyPlan(child, p.field.children().get(k), start, end));
        }
        if (p.field.dictionary() != null) {
            MemorySegment dictionary = Pointers.struct(p.array.get(ADDRESS, ArrowArrayLayout.DICTIONARY), ArrowArrayLayout.LAYOUT);
            long offset = dictionary.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
            p.dictionary = new CopyPlan(dictionary, p.field.dictionary().values(), offset,
                    offset + dictionary.get(JAVA_LONG, ArrowArrayLayout.LENGTH));
        }
    }

    private ArrayData copyNode(CopyPlan p) {
        long base = p.base();
        List<MemorySegment> copied = new ArrayList<>();
        for (int i = 0; i < p.nBuffers; i++) {
            MemorySegment pointer = p.pointer(i);
            if (pointer.equals(MemorySegment.NULL)) {
                copied.add(MemorySegment.NULL);
            } else if (i >= p.layout.bufferCount()) {
                copied.add(variadic(p, i, pointer));
            } else {
                copied.add(copyBuffer(p, i, pointer, base));
            }
        }
        List<ArrayData> children = p.children.stream().map(this::copyNode).toList();
        ArrayData dictionary = p.dictionary == null ? null : copyNode(p.dictionary);
        return new ArrayData(p.end - p.start, nullCount(p), p.outOffset, copied, children, dictionary);
    }

    private MemorySegment copyBuffer(CopyPlan p, int i, MemorySegment pointer, long base) {
        BufferLayout.Buffer buffer = p.layout.buffers().get(i);
        if (buffer.kind() == BufferLayout.Kind.OFFSETS && p.offsetBytes() > 0) {
            return rebasedOffsets(p);
        }
        if (buffer.kind() == BufferLayout.Kind.DATA) {
            long from = p.offsets == null ? 0 : p.offsetAt(base);
            long to = p.offsets == null ? 0 : p.offsetAt(p.end);
            return transfer(pointer, from, to - from);
        }
        long from;
        long to;
        switch (buffer.kind()) {
            case VALIDITY, BITS -> {
                from = base / 8;
                to = (p.end + 7) / 8;
            }
            default -> {
                long width = buffer.bitWidth() / 8;
                from = base * width;
                to = p.end * width;
            }
        }
        return transfer(pointer, from, to - from);
    }

    private MemorySegment rebasedOffsets(CopyPlan p) {
        int width = p.offsetBytes();
        long count = p.end - p.base() + 1;
        MemorySegment host = uploadBuffer(count * width);
        long first = p.offsetAt(p.base());
        for (long j = 0; j < count; j++) {
            long value = p.offsetAt(p.base() + j) - first;
            if (width == 4) {
                host.set(JAVA_INT_UNALIGNED, j * 4, (int) value);
            } else {
                host.set(JAVA_LONG_UNALIGNED, j * 8, value);
            }
        }
        MemorySegment to = allocate(host.byteSize());
        upload(host, to);
        return to;
    }

    private MemorySegment variadic(CopyPlan p, int i, MemorySegment pointer) {
        if (i == p.nBuffers - 1) {
            MemorySegment to = allocate(p.variadicSizes.byteSize());
            MemorySegment sizes = uploadBuffer(p.variadicSizes.byteSize());
            MemorySegment.copy(p.variadicSizes, 0, sizes, 0, sizes.byteSize());
            upload(sizes, to);
            return to;
        }
        long size = p.variadicSizes.get(JAVA_LONG_UNALIGNED, (i - p.layout.bufferCount()) * 8L);
        return transfer(pointer, 0, size);
    }

    private static long nullCount(CopyPlan p) {
        long original = p.array.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT);
        ArrowType type = p.field.type();
        if (p.field.dictionary() == null && (type instanceof ArrowType.Union || type instanceof ArrowType.RunEndEncoded)) {
            return 0;
        }
        if (p.field.dictionary() == null && type instanceof ArrowType.Null) {
            return p.end - p.start;
        }
        if (p.nBuffers > 0 && p.layout.hasValidity() && p.pointer(0).equals(MemorySegment.NULL)) {
            return 0;
        }
        long offset = p.array.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        boolean sameRange = p.start == offset && p.end == offset + p.array.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        return sameRange ? original : -1;
    }

    // ---- memory movement ------------------------------------------------------------------------

    private boolean sourceIsHost() {
        return source.hostAccessible();
    }

    /** Source bytes [offset, offset + size) as host memory: a view for host sources, else a staged read. */
    private MemorySegment read(MemorySegment pointer, long offset, long size) {
        if (sourceIsHost()) {
            return Pointers.bytes(pointer, offset + size).asSlice(offset, size);
        }
        MemorySegment host = staging.allocate(Math.max(size, 1), ALIGNMENT).asSlice(0, size);
        source.copyToHost(pointer, offset, host, source.defaultStream());
        BYTES_MOVED.addAndGet(size);
        return host;
    }

    /** @return host memory from the host pool for bytes the copier writes and uploads, freed when the uploads complete */
    private MemorySegment uploadBuffer(long bytes) {
        MemorySegment memory = HOST.allocate(bytes, ALIGNMENT);
        uploadStaging.add(memory);
        return memory;
    }

    private MemorySegment allocate(long bytes) {
        MemorySegment to = target.allocate(bytes, ALIGNMENT);
        allocations.add(to);
        allocated += bytes;
        return to;
    }

    private void upload(MemorySegment host, MemorySegment to) {
        if (host.byteSize() == 0) {
            return;
        }
        BYTES_MOVED.addAndGet(host.byteSize());
        if (target.hostAccessible()) {
            target.synchronizeStream(stream);
            MemorySegment.copy(host, 0, Pointers.bytes(to, host.byteSize()), 0, host.byteSize());
        } else {
            target.copyFromHost(host, to, 0, stream);
            readsHostMemory = true;
        }
    }

    /** Copies source bytes [offset, offset + bytes) into a new target allocation. */
    private MemorySegment transfer(MemorySegment from, long offset, long bytes) {
        MemorySegment to = allocate(bytes);
        if (bytes == 0) {
            return to;
        }
        if (sourceIsHost()) {
            upload(Pointers.bytes(from, offset + bytes).asSlice(offset, bytes), to);
        } else if (source == target) {
            BYTES_MOVED.addAndGet(bytes);
            target.copyWithinDevice(from, offset, to, 0, bytes, stream);
        } else {
            BYTES_MOVED.addAndGet(bytes);
            MemorySegment host = target.hostAccessible() ? Pointers.bytes(to, bytes) : staging.allocate(bytes, ALIGNMENT);
            source.copyToHost(from, offset, host, source.defaultStream());
            source.synchronizeStream(source.defaultStream());
            if (!target.hostAccessible()) {
                upload(host, to);
                target.synchronizeStream(stream);
            }
        }
        return to;
    }
}
