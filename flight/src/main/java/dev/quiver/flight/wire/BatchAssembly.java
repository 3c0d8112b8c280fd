package dev.quiver.flight.wire;

import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Arrays over a received body, built through {@link ArrayBuilder#of(Field, Device)} from a {@link BatchHeader} that was
 * already checked: each buffer is a view of the body (no copy), wrapped as a buffer of the body's device that
 * holds a reference on the body, so the body is freed once every array built over it is released, whatever
 * the order. A view array's variadic sizes (which the IPC header carries, not the body) go into a small
 * allocation of their own. The builder checks every buffer's size against what the node's length implies.
 *
 * <p><b>Ownership.</b> The assembly holds one reference on the body; the caller lets go of it with
 * {@link #close()} once the arrays are built (or building failed). Arrays built belong to the caller.
 * <b>Threading.</b> One thread.
 */
final class BatchAssembly implements AutoCloseable {
    private final Device device;
    private final MemorySegment body;
    private final SharedRelease memory;
    private final BatchHeader header;
    private final Iterator<Long> dictionaryIds;
    private final Map<Long, DeviceArray> dictionaries;
    /** Every buffer handed to a builder, by address: the bytes that arrived for it (the largest, where two share one). */
    private final Map<Long, Long> capacities = new HashMap<>();
    private int node;
    private int buffer;
    private int view;

    /**
     * @param device        the host-accessible device of the body
     * @param body          the body, owned by the assembly from now on (freed with the last array over it)
     * @param header        the body's checked header
     * @param dictionaryIds the ids of the dictionary-encoded fields of the columns, in pre-order
     * @param dictionaries  the dictionaries received so far, by id (not consumed: the arrays take views)
     */
    BatchAssembly(Device device, DeviceBuffer body, BatchHeader header, List<Long> dictionaryIds, Map<Long, DeviceArray> dictionaries) {
        this.device = device;
        this.body = body == null ? MemorySegment.NULL : body.asSegment();
        this.memory = new SharedRelease(body == null ? () -> { } : body);
        this.header = header;
        this.dictionaryIds = dictionaryIds.iterator();
        this.dictionaries = dictionaries;
    }

    /**
     * @param field a column's field; columns are built in order
     * @return the column, owned by the caller
     * @throws IllegalArgumentException      if a buffer does not fit the node's length (from the builder)
     * @throws dev.quiver.InvalidArrowException if the structure is invalid (from the builder)
     * @throws IllegalStateException         if a dictionary the column refers to has not arrived
     */
    DeviceArray column(Field field) {
        long length = header.nodeLengths()[node];
        long nulls = header.nodeNulls()[node];
        node++;
        ArrayBuilder builder = ArrayBuilder.of(field, device).length(length).nullCount(nulls);
        List<AutoCloseable> pending = new ArrayList<>();
        try {
            BufferLayout layout = BufferLayout.of(field.type());
            for (int i = 0; i < layout.bufferCount(); i++) {
                addBuffer(builder, pending, i == 0 && layout.hasValidity(), length);
            }
            if (layout.variadic()) {
                long count = header.variadicCounts()[view++];
                DeviceBuffer sizes = device.allocate(8 * Math.max(1, count), 8);
                pending.add(sizes);
                MemorySegment sizeSegment = sizes.asSegment();
                for (long v = 0; v < count; v++) {
                    sizeSegment.setAtIndex(JAVA_LONG, v, header.bufferLengths()[buffer]);
                    addBuffer(builder, pending, false, length);
                }
                builder.buffer(sizes);
                capacities.merge(sizes.pointer().address(), sizes.byteSize(), Math::max);
            }
            if (field.dictionary() != null) {
                long id = dictionaryIds.next();
                DeviceArray dictionary = dictionaries.get(id);
                if (dictionary == null) {
                    throw new IllegalStateException("field " + field.name() + " refers to dictionary " + id + ", which has not arrived");
                }
                DeviceArray view = dictionary.slice(0, dictionary.length());
                pending.add(view);
                builder.dictionary(view);
            } else {
                for (Field child : field.children()) {
                    DeviceArray built = column(child);
                    pending.add(built);
                    builder.child(built);
                }
            }
            return builder.build();
        } catch (RuntimeException | Error e) {
            for (AutoCloseable resource : pending) {
                try {
                    resource.close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    private void addBuffer(ArrayBuilder builder, List<AutoCloseable> pending, boolean validity, long length) {
        long offset = header.bufferOffsets()[buffer];
        long bytes = header.bufferLengths()[buffer];
        buffer++;
        if (bytes == 0 && (validity || length == 0)) {
            builder.absentBuffer();
            return;
        }
        MemorySegment slice = body.asSlice(offset, bytes);
        memory.retain();
        DeviceBuffer wrapped;
        try {
            wrapped = device.wrap(slice, bytes, memory::release);
        } catch (RuntimeException | Error e) {
            memory.release();
            throw e;
        }
        pending.add(wrapped);
        builder.buffer(wrapped);
        capacities.merge(slice.address(), bytes, Math::max);
    }

    /**
     * {@return the bytes that arrived for a buffer handed to a builder, or -1 for memory not of this assembly}
     * @param pointer a buffer's pointer
     */
    long capacity(MemorySegment pointer) {
        return capacities.getOrDefault(pointer.address(), -1L);
    }

    /** Lets go of the assembly's reference on the body. */
    @Override
    public void close() {
        memory.release();
    }
}
