package dev.quiver.host;

import dev.quiver.DeviceArray;
import dev.quiver.SyncEvent;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Reads the values of an array whose memory the host can address (CPU, pinned or managed memory). Indexes
 * are logical: element {@code i} is at {@code offset + i} of the buffers.
 *
 * <p>A reader borrows the array's memory: it is valid only while its {@link DeviceArray} is open, and reads
 * after close are undefined. It keeps no mutable state, so several threads may read through one reader.
 * Reading assumes structurally valid data (every import checks the structs); it checks offsets it follows
 * against each other but cannot know the true size of a foreign buffer.
 */
public final class ArrayReader {
    private final MemorySegment array;
    private final Field field;
    private final long length;
    private final long offset;

    private ArrayReader(MemorySegment array, Field field) {
        this.array = array;
        this.field = field;
        this.length = array.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        this.offset = array.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
    }

    /**
     * Waits on the host for the array's sync event, if it has one, then returns a reader.
     *
     * @param array an open array in host-accessible memory
     * @return a reader of its values
     * @throws IllegalArgumentException if the host cannot address the array's memory
     */
    public static ArrayReader of(DeviceArray array) {
        if (!array.deviceType().isHostAccessible()) {
            throw new IllegalArgumentException(array + ": " + array.deviceType()
                    + " memory is not host accessible; copy it to the CPU first (DeviceArray.copyTo)");
        }
        array.syncEvent().ifPresent(SyncEvent::waitOnHost);
        return new ArrayReader(array.arrowArray(), array.field());
    }

    /** @return the field */
    public Field field() {
        return field;
    }

    /** @return the number of elements */
    public long length() {
        return length;
    }

    /** @return the {@code offset} of this array into its buffers */
    public long offset() {
        return offset;
    }

    /**
     * @param i element index
     * @return true if element {@code i} is null
     */
    public boolean isNull(long i) {
        Objects.checkIndex(i, length);
        if (field.type() instanceof ArrowType.Null) {
            return true;
        }
        if (!BufferLayout.of(field.type()).hasValidity()) {
            return false;
        }
        MemorySegment validity = buffer(0, (offset + length + 7) / 8);
        return !validity.equals(MemorySegment.NULL) && !Values.bit(validity, offset + i);
    }

    /**
     * @param i element index
     * @return the integer at {@code i} (unsigned widths zero-extended; uint64 as its bits)
     */
    public long getLong(long i) {
        ArrowType.Int type = (ArrowType.Int) expect(ArrowType.Int.class);
        return Values.integer(type, data(type.bitWidth()), offset + checked(i));
    }

    /**
     * @param i element index
     * @return the floating-point value at {@code i}, widened to double
     */
    public double getDouble(long i) {
        ArrowType.FloatingPoint type = (ArrowType.FloatingPoint) expect(ArrowType.FloatingPoint.class);
        return Values.floating(type, data(type.bitWidth()), offset + checked(i));
    }

    /**
     * @param i element index
     * @return the boolean at {@code i}
     */
    public boolean getBoolean(long i) {
        expect(ArrowType.Bool.class);
        return Values.bit(data(1), offset + checked(i));
    }

    /**
     * @param i element index
     * @return the bytes of the utf8 or binary value at {@code i}
     */
    public byte[] getBytes(long i) {
        if (!(field.type() instanceof ArrowType.Utf8) && !(field.type() instanceof ArrowType.Binary)) {
            throw new IllegalStateException(field.name() + " is " + field.type().format() + ", not utf8 or binary");
        }
        long start = listStart(i);
        long end = listEnd(i);
        MemorySegment data = buffer(2, end);
        if (data.equals(MemorySegment.NULL)) {
            if (end == start) {
                return new byte[0];
            }
            throw new IllegalStateException(field.name() + ": data buffer is NULL but value " + i + " has " + (end - start) + " bytes");
        }
        return data.asSlice(start, end - start).toArray(JAVA_BYTE);
    }

    /**
     * @param i element index
     * @return the utf8 value at {@code i}
     */
    public String getString(long i) {
        return new String(getBytes(i), StandardCharsets.UTF_8);
    }

    /**
     * @param i element index of a list, utf8 or binary array
     * @return the first child element (or byte) of element {@code i}
     */
    public long listStart(long i) {
        return offsets(i)[0];
    }

    /**
     * @param i element index of a list, utf8 or binary array
     * @return one past the last child element (or byte) of element {@code i}
     */
    public long listEnd(long i) {
        return offsets(i)[1];
    }

    private long[] offsets(long i) {
        if (BufferLayout.of(field.type()).offsetByteWidth() == 0) {
            throw new IllegalStateException(field.name() + " is " + field.type().format() + ", which has no offsets");
        }
        long at = offset + checked(i);
        MemorySegment offsets = buffer(1, (offset + length + 1) * 4);
        long start = Values.offset(offsets, at);
        long end = Values.offset(offsets, at + 1);
        if (start < 0 || end < start) {
            throw new IllegalStateException(field.name() + ": offsets[" + at + ".." + (at + 1) + "] = " + start + ".." + end + " are not ascending");
        }
        return new long[] {start, end};
    }

    /**
     * @param k child index
     * @return a reader of child {@code k} (the list elements, a struct member)
     */
    public ArrayReader child(int k) {
        long n = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        Objects.checkIndex(k, n);
        MemorySegment pointers = array.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(n * ADDRESS.byteSize());
        return new ArrayReader(pointers.getAtIndex(ADDRESS, k).reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), field.children().get(k));
    }

    /**
     * @param i element index
     * @return element {@code i} in the Java mapping of {@link HostVector}
     */
    public Object getObject(long i) {
        if (isNull(i)) {
            return null;
        }
        return switch (field.type()) {
            case ArrowType.Null n -> null;
            case ArrowType.Bool b -> getBoolean(i);
            case ArrowType.Int t -> getLong(i);
            case ArrowType.FloatingPoint f -> getDouble(i);
            case ArrowType.Utf8 u -> getString(i);
            case ArrowType.Binary b -> ByteBuffer.wrap(getBytes(i)).asReadOnlyBuffer();
            case ArrowType.ListType l -> {
                ArrayReader elements = child(0);
                List<Object> values = new ArrayList<>();
                for (long j = listStart(i); j < listEnd(i); j++) {
                    values.add(elements.getObject(j));
                }
                yield values;
            }
            case ArrowType.Struct s -> {
                Map<String, Object> members = new LinkedHashMap<>();
                for (int k = 0; k < field.children().size(); k++) {
                    members.put(field.children().get(k).name(), child(k).getObject(offset + i));
                }
                yield members;
            }
        };
    }

    /** @return every element, in the Java mapping of {@link HostVector} */
    public List<Object> values() {
        List<Object> out = new ArrayList<>();
        for (long i = 0; i < length; i++) {
            out.add(getObject(i));
        }
        return out;
    }

    private long checked(long i) {
        return Objects.checkIndex(i, length);
    }

    private ArrowType expect(Class<? extends ArrowType> kind) {
        if (!kind.isInstance(field.type())) {
            throw new IllegalStateException(field.name() + " is " + field.type().format() + ", not " + kind.getSimpleName());
        }
        return field.type();
    }

    private MemorySegment data(int bitWidth) {
        MemorySegment data = buffer(1, ((offset + length) * bitWidth + 7) / 8);
        if (data.equals(MemorySegment.NULL)) {
            throw new IllegalStateException(field.name() + ": data buffer is NULL");
        }
        return data;
    }

    private MemorySegment buffer(int i, long bytes) {
        long n = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        MemorySegment pointer = array.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(n * ADDRESS.byteSize()).getAtIndex(ADDRESS, i);
        return pointer.equals(MemorySegment.NULL) ? pointer : pointer.reinterpret(bytes);
    }
}
