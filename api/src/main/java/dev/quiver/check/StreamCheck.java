package dev.quiver.check;

import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.validate.SchemaReader;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Drives an ArrowDeviceArrayStream the way a consumer must and checks it: the callbacks are set and are
 * code; the stream is moved before use (so every callback gets a struct at a new address); the schema is
 * read; each array is checked like a single ArrowDeviceArray against that schema, must have the stream's
 * device type, and is released; the end of the stream is a released array with return value 0; after an
 * error, {@code get_last_error} must give NULL or a readable string; the stream's release must mark it
 * released; and the schema is released last, after the stream, since results outlive their stream.
 * Single-threaded.
 */
final class StreamCheck {
    private static final String PATH = "stream";
    private static final int MAX_MESSAGE = 1 << 16;
    private static final List<String> CALLBACKS = List.of("get_schema", "get_next", "get_last_error", "release");
    private static final long[] OFFSETS = {ArrowDeviceArrayStreamLayout.GET_SCHEMA, ArrowDeviceArrayStreamLayout.GET_NEXT,
        ArrowDeviceArrayStreamLayout.GET_LAST_ERROR, ArrowDeviceArrayStreamLayout.RELEASE};
    private static final long SIZE = ArrowDeviceArrayStreamLayout.LAYOUT.byteSize();

    private final Collector collector;
    private final Devices devices;
    private final MemorySegment stream;
    private final DeviceType deviceType;

    private StreamCheck(Collector collector, Devices devices, MemorySegment stream, DeviceType deviceType) {
        this.collector = collector;
        this.devices = devices;
        this.stream = stream;
        this.deviceType = deviceType;
    }

    /**
     * @param producerStream the producer's struct, readable; left released
     * @param maxArrays      how many arrays to pull at most
     * @param arena          where the consumer's structs live
     * @param collector      where violations go
     * @param devices        backends to ask about events
     */
    static void check(MemorySegment producerStream, int maxArrays, Arena arena, Collector collector, Devices devices) {
        MemorySegment source = producerStream.reinterpret(SIZE);
        DeviceType type = DeviceArrayCheck.deviceType(source.get(JAVA_INT, ArrowDeviceArrayStreamLayout.DEVICE_TYPE), PATH + ".device_type", collector);
        if (source.get(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE).equals(MemorySegment.NULL)) {
            collector.report(Rule.STREAM_RELEASED, PATH + ".release", "is NULL: the stream is released");
            return;
        }
        boolean callable = true;
        for (int i = 0; i < CALLBACKS.size(); i++) {
            MemorySegment function = source.get(ADDRESS, OFFSETS[i]);
            String path = PATH + "." + CALLBACKS.get(i);
            if (function.equals(MemorySegment.NULL)) {
                collector.report(Rule.STREAM_CALLBACK, path, "is NULL but the callback is mandatory");
                callable = false;
            } else if (!collector.callable(function, path)) {
                callable = false;
            }
        }
        SelfPointers.check(source, 0, List.of(new StructKind.Member("private_data", ArrowDeviceArrayStreamLayout.PRIVATE_DATA)), PATH, collector);
        if (!callable) {
            collector.note("stream callbacks missing or not code: the stream was not driven, only released");
            ReleaseCheck.releaseFlat(source, SIZE, ArrowDeviceArrayStreamLayout.RELEASE, PATH, collector);
            return;
        }
        MemorySegment own = arena.allocate(SIZE, 8).copyFrom(source);
        source.set(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE, MemorySegment.NULL);
        new StreamCheck(collector, devices, own, type).drive(maxArrays, arena);
    }

    private void drive(int maxArrays, Arena arena) {
        MemorySegment schema = Conformance.poisoned(arena, ArrowSchemaLayout.LAYOUT.byteSize());
        int rc = NativeCalls.call(callback(ArrowDeviceArrayStreamLayout.GET_SCHEMA), stream, schema);
        collector.refreshMemory();
        Field field = null;
        if (rc != 0) {
            failed("get_schema", rc);
        } else {
            field = SchemaReader.read(schema, "schema", collector);
            collector.checked("ArrowSchema from get_schema" + (field == null ? "" : ": format \"" + field.type().format() + "\""));
            SelfPointers.check(schema, 0, StructKind.SCHEMA.pointers, "schema", collector);
            SelfPointers.check(StructKind.SCHEMA, StructTree.descendants(StructKind.SCHEMA, schema, "schema", collector), collector);
        }
        if (rc == 0) {
            if (field == null) {
                collector.note("the ArrowSchema's faults leave the type unknown: the arrays were checked only against "
                        + "the rules that hold for every type");
            }
            pull(field, maxArrays, arena);
        }
        ReleaseCheck.releaseFlat(stream, SIZE, ArrowDeviceArrayStreamLayout.RELEASE, PATH, collector);
        if (rc == 0) {
            ReleaseCheck.release(StructKind.SCHEMA, schema, "schema", collector);
        }
    }

    private void pull(Field field, int maxArrays, Arena arena) {
        for (int i = 0; i < maxArrays; i++) {
            MemorySegment array = Conformance.poisoned(arena, ArrowDeviceArrayLayout.LAYOUT.byteSize());
            int rc = NativeCalls.call(callback(ArrowDeviceArrayStreamLayout.GET_NEXT), stream, array);
            collector.refreshMemory();
            if (rc != 0) {
                failed("get_next (array " + i + ")", rc);
                return;
            }
            if (array.get(ADDRESS, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE).equals(MemorySegment.NULL)) {
                collector.checked("end of stream after " + i + " arrays");
                return;
            }
            String path = "arrays[" + i + "]";
            DeviceType type = DeviceArrayCheck.check(array, field, path, collector, devices);
            if (!type.equals(deviceType)) {
                collector.report(Rule.STREAM_DEVICE_TYPE, path + ".device_type", "is " + type + " (" + type.code()
                        + ") but the stream's device_type is " + deviceType + " (" + deviceType.code() + ")");
            }
        }
        collector.note("stopped after " + maxArrays + " arrays without reaching the end of the stream");
    }

    /** Reports a callback's error with what {@code get_last_error} says, checking that answer too. */
    private void failed(String call, int rc) {
        String path = PATH + "." + call.replaceFirst(" .*", "");
        if (rc < 0) {
            collector.report(Rule.STREAM_ERROR_CODE, path, "returned " + rc + ": error codes are errno values, which are positive");
        }
        MemorySegment message = NativeCalls.callForPointer(callback(ArrowDeviceArrayStreamLayout.GET_LAST_ERROR), stream);
        collector.refreshMemory();
        String text = lastError(message);
        collector.report(Rule.PRODUCER_ERROR, path, call + " returned " + rc + (text == null ? "" : ": " + text)
                + "; nothing further could be checked");
    }

    /** @return the message, or null for NULL or (after reporting) an unreadable or malformed one */
    private String lastError(MemorySegment message) {
        if (message.equals(MemorySegment.NULL)) {
            return null;
        }
        String path = PATH + ".get_last_error";
        long readable = collector.readableBytes(message, MAX_MESSAGE);
        MemorySegment bytes = message.reinterpret(readable);
        long length = 0;
        while (length < readable && bytes.get(JAVA_BYTE, length) != 0) {
            length++;
        }
        if (length == readable) {
            collector.report(Rule.STREAM_LAST_ERROR, path, "returned 0x" + Long.toHexString(message.address())
                    + (readable == 0 ? ", which is not readable memory"
                    : ", with no NUL terminator in the " + readable + " readable bytes there"));
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes.asSlice(0, length).toArray(JAVA_BYTE))).toString();
        } catch (CharacterCodingException e) {
            collector.report(Rule.STREAM_LAST_ERROR, path, "returned a string that is not valid UTF-8");
            return null;
        }
    }

    private MemorySegment callback(long offset) {
        return stream.get(ADDRESS, offset);
    }
}
