package dev.quiver.internal;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.spi.BackendDevice;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * Copies a validated ArrowArray tree buffer by buffer to a target device through the SPI, and exports the
 * result as an ArrowDeviceArray whose release frees the target allocations (and the event) through the
 * target backend. Buffer sizes come from type, offset and length; variable-length sizes are read from the
 * end offset. The caller has honoured the source's sync event.
 */
public final class ArrayCopier {
    private static final long ALIGNMENT = 64;

    private final BackendDevice source;
    private final BackendDevice target;
    private final MemorySegment stream;
    private final List<MemorySegment> allocations = new ArrayList<>();
    private boolean readsHostMemory;

    private ArrayCopier(BackendDevice source, BackendDevice target, MemorySegment stream) {
        this.source = source;
        this.target = target;
        this.stream = stream;
    }

    /**
     * @param array  the source ArrowArray (80 bytes), validated against {@code field}
     * @param field  its field
     * @param source the backend of the source memory, or null for host memory
     * @param target the backend to copy to
     * @param stream a stream of {@code target}
     * @param out    128 bytes to receive the exported copy
     */
    public static void copy(MemorySegment array, Field field, BackendDevice source, BackendDevice target,
                            MemorySegment stream, MemorySegment out) {
        ArrayCopier copier = new ArrayCopier(source, target, stream);
        Arena structs = Arena.ofShared();
        MemorySegment event = MemorySegment.NULL;
        try {
            ArrayData data = copier.node(array, field);
            if (copier.readsHostMemory) {
                // The source may be closed as soon as copyTo returns: host reads must be complete by then.
                target.synchronizeStream(stream);
            }
            MemorySegment syncEvent = MemorySegment.NULL;
            if (target.supportsEvents()) {
                event = target.createEvent();
                target.recordEvent(event, stream);
                syncEvent = structs.allocate(ADDRESS);
                syncEvent.set(ADDRESS, 0, event);
            } else {
                target.synchronizeStream(stream);
            }
            MemorySegment ownedEvent = event;
            List<MemorySegment> owned = List.copyOf(copier.allocations);
            StructWriter.writeDeviceArray(out, data, target.deviceType(), target.deviceId(), syncEvent, structs, () -> {
                try {
                    if (!ownedEvent.equals(MemorySegment.NULL)) {
                        target.destroyEvent(ownedEvent);
                    }
                    owned.forEach(target::free);
                } finally {
                    structs.close();
                }
            });
        } catch (RuntimeException | Error e) {
            try {
                target.synchronizeStream(stream);
                if (!event.equals(MemorySegment.NULL)) {
                    target.destroyEvent(event);
                }
                copier.allocations.forEach(target::free);
                structs.close();
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    private ArrayData node(MemorySegment array, Field field) {
        long length = array.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        long offset = array.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        long nullCount = array.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT);
        long nBuffers = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        MemorySegment buffers = array.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(nBuffers * ADDRESS.byteSize());
        BufferLayout layout = BufferLayout.of(field.type());
        long slots = offset + length;
        long[] sizes = new long[(int) nBuffers];
        for (int i = 0; i < layout.bufferCount(); i++) {
            BufferLayout.Buffer buffer = layout.buffers().get(i);
            if (buffer.kind() == BufferLayout.Kind.DATA) {
                BufferLayout.Buffer offsets = layout.buffers().get(i - 1);
                MemorySegment offsetsPointer = buffers.getAtIndex(ADDRESS, i - 1);
                sizes[i] = length == 0 || offsetsPointer.equals(MemorySegment.NULL) ? 0
                        : read(offsetsPointer, slots * (offsets.bitWidth() / 8), offsets.bitWidth());
            } else if (buffer.kind() == BufferLayout.Kind.OFFSETS && length == 0 && offset == 0) {
                sizes[i] = buffers.getAtIndex(ADDRESS, i).equals(MemorySegment.NULL) ? 0 : buffer.bytesFor(0);
            } else {
                sizes[i] = buffer.bytesFor(slots);
            }
        }
        if (layout.variadic()) {
            int variadic = (int) nBuffers - layout.bufferCount() - 1;
            sizes[(int) nBuffers - 1] = variadic * 8L;
            MemorySegment sizesPointer = buffers.getAtIndex(ADDRESS, nBuffers - 1);
            for (int k = 0; k < variadic; k++) {
                sizes[layout.bufferCount() + k] = read(sizesPointer, k * 8L, 64);
            }
        }
        List<MemorySegment> copied = new ArrayList<>();
        for (int i = 0; i < nBuffers; i++) {
            MemorySegment pointer = buffers.getAtIndex(ADDRESS, i);
            copied.add(pointer.equals(MemorySegment.NULL) ? MemorySegment.NULL : copyBuffer(pointer, sizes[i]));
        }
        long nChildren = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        MemorySegment children = array.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(nChildren * ADDRESS.byteSize());
        List<ArrayData> copiedChildren = new ArrayList<>();
        for (int i = 0; i < nChildren; i++) {
            copiedChildren.add(node(children.getAtIndex(ADDRESS, i).reinterpret(ArrowArrayLayout.LAYOUT.byteSize()),
                    field.children().get(i)));
        }
        ArrayData dictionary = null;
        if (field.dictionary() != null) {
            dictionary = node(array.get(ADDRESS, ArrowArrayLayout.DICTIONARY).reinterpret(ArrowArrayLayout.LAYOUT.byteSize()),
                    field.dictionary().values());
        }
        return new ArrayData(length, nullCount, offset, copied, copiedChildren, dictionary);
    }

    private boolean sourceIsHost() {
        return source == null || source.hostAccessible();
    }

    /** Reads one little-endian integer of {@code bits} (32 or 64) from source memory. */
    private long read(MemorySegment pointer, long byteOffset, int bits) {
        long bytes = bits / 8;
        if (sourceIsHost()) {
            MemorySegment host = pointer.reinterpret(byteOffset + bytes);
            return bits == 32 ? host.get(JAVA_INT_UNALIGNED, byteOffset) : host.get(JAVA_LONG_UNALIGNED, byteOffset);
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(bytes, bytes);
            source.copyToHost(pointer, byteOffset, value, source.defaultStream());
            source.synchronizeStream(source.defaultStream());
            return bits == 32 ? value.get(JAVA_INT, 0) : value.get(JAVA_LONG, 0);
        }
    }

    private MemorySegment copyBuffer(MemorySegment from, long bytes) {
        MemorySegment to = target.allocate(bytes, ALIGNMENT);
        allocations.add(to);
        if (bytes == 0) {
            return to;
        }
        if (sourceIsHost()) {
            MemorySegment host = from.reinterpret(bytes);
            if (target.hostAccessible()) {
                target.synchronizeStream(stream);
                MemorySegment.copy(host, 0, to.reinterpret(bytes), 0, bytes);
            } else {
                target.copyFromHost(host, to, 0, stream);
                readsHostMemory = true;
            }
        } else if (source == target) {
            target.copyWithinDevice(from, 0, to, 0, bytes, stream);
        } else {
            try (Arena staging = Arena.ofConfined()) {
                MemorySegment host = target.hostAccessible() ? to.reinterpret(bytes) : staging.allocate(bytes, ALIGNMENT);
                source.copyToHost(from, 0, host, source.defaultStream());
                source.synchronizeStream(source.defaultStream());
                if (!target.hostAccessible()) {
                    target.copyFromHost(host, to, 0, stream);
                    target.synchronizeStream(stream);
                }
            }
        }
        return to;
    }
}
