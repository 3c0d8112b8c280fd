package dev.quiver.flight.hostile;

import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.List;

import static dev.quiver.flight.hostile.IpcFrames.batch;
import static dev.quiver.flight.hostile.IpcFrames.ints;
import static dev.quiver.flight.hostile.IpcFrames.longs;
import static dev.quiver.flight.hostile.IpcFrames.utf8;
import static dev.quiver.flight.hostile.IpcFrames.validity;

/**
 * Streams a hostile peer sends, each breaking the Arrow format one way, with what the refusal must name.
 * Every case lies only in its last message; the messages before it are well formed.
 *
 * @param name     what the case does, for test names
 * @param messages the stream's messages, schema first (unless the case is about that), without a descriptor
 * @param names    what the refusal's message must contain: the field path of the fault, or what was unreadable
 * @param refuser  who refuses it: Quiver's check of the batch against the buffers that arrived, or Arrow Java's
 *                 reader before it (which, in Arrow Java 19, leaks a buffer of its own when it fails growing a
 *                 vector to a row count its buffers do not hold: see {@link #readerLeaks})
 */
public record HostileCases(String name, List<Flight.FlightData> messages, String names, Refuser refuser) {

    /** Who refuses a case. */
    public enum Refuser {
        /** Quiver's check, naming the field path; nothing is left allocated. */
        QUIVER,
        /** Arrow Java's reader, whose exception Quiver passes on as INVALID_ARGUMENT; nothing is left allocated. */
        READER,
        /**
         * Arrow Java 19's reader, which fails while growing a vector to the batch's row count and leaves the
         * buffer it allocated for that charged to its allocator (a few dozen bytes per message; a defect of
         * {@code BaseFixedWidthVector.reAlloc}, outside Quiver's reach as Flight reads the message before
         * handing it over).
         */
        READER_LEAKING,
        /**
         * Quiver's wait for the schema, which ends after the schema timeout. A server releases what the client
         * sent; a client cannot: Arrow Java's {@code FlightStream} keeps the messages queued before the schema
         * until one arrives, and a call the server ended has none to come (the body of those messages stays
         * charged to the client's allocator). Arrow Java's IPC stream reader, which refuses the stream at
         * once, leaves the body of that first message charged the same way.
         */
        NO_SCHEMA
    }

    /** @return true where a client refusing the stream is left with bytes it cannot release */
    public boolean clientLeaks() {
        return refuser == Refuser.READER_LEAKING || refuser == Refuser.NO_SCHEMA;
    }

    /** @return true where Arrow Java's reader leaves bytes allocated when it refuses the message */
    public boolean readerLeaks() {
        return refuser == Refuser.READER_LEAKING;
    }

    HostileCases(String name, List<Flight.FlightData> messages, String names) {
        this(name, messages, names, names.startsWith("batch 0") ? Refuser.READER : Refuser.QUIVER);
    }

    private HostileCases leaking() {
        return new HostileCases(name, messages, names, Refuser.READER_LEAKING);
    }
    private static final byte[] NONE = new byte[0];
    static final Schema STRINGS = new Schema(List.of(Field.nullable("s", ArrowType.Utf8.INSTANCE)));
    static final Schema LONGS = new Schema(List.of(Field.nullable("n", new ArrowType.Int(64, true))));
    static final Schema VIEWS = new Schema(List.of(Field.nullable("v", ArrowType.Utf8View.INSTANCE)));
    static final Schema COLOURS = new Schema(List.of(new Field("colour",
            new FieldType(true, ArrowType.Utf8.INSTANCE, new DictionaryEncoding(0, false, new ArrowType.Int(32, true))), List.of())));

    @Override
    public String toString() {
        return name;
    }

    /** @return every case */
    public static List<HostileCases> all() {
        return List.of(
                strings("offsets past the data buffer (1 GiB promised, 8 bytes sent)", ints(0, 8, 1 << 30), utf8("abcdefgh"), "children[0].buffers[2]"),
                strings("offsets past the data buffer by one byte", ints(0, 8, 9), utf8("abcdefgh"), "children[0].buffers[2]"),
                strings("descending offsets", ints(0, 8, 4), utf8("abcdefgh"), "children[0].buffers[1]"),
                strings("a negative first offset", ints(-8, 0, 8), utf8("abcdefgh"), "children[0].buffers[1]"),
                strings("invalid UTF-8", ints(0, 2, 4), new byte[] {(byte) 0xff, (byte) 0xfe, 'o', 'k'}, "children[0].buffers[2]"),
                new HostileCases("offsets buffer shorter than the rows", List.of(IpcFrames.schema(STRINGS),
                        batch(1000).node(1000, 0).buffer(NONE).buffer(ints(0, 1)).buffer(utf8("a")).message()), "batch 0").leaking(),
                longsBatch("rows longer than the data buffer", 1000, 1000, 0, longs(1), "batch 0").leaking(),
                longsBatch("a negative row count", -1, -1, 0, longs(1), "batch 0").leaking(),
                longsBatch("a row count past 2^31", 1L << 40, 1L << 40, 0, longs(1), "batch 0").leaking(),
                new HostileCases("a buffer missing", List.of(IpcFrames.schema(LONGS),
                        batch(1).node(1, 0).buffer(longs(1)).message()), "batch 0"),
                new HostileCases("a buffer region past the body", List.of(IpcFrames.schema(LONGS),
                        batch(1).node(1, 0).buffer(NONE).region(1 << 20, 8).message()), "batch 0"),
                new HostileCases("a buffer region of negative length", List.of(IpcFrames.schema(LONGS),
                        batch(1).node(1, 0).buffer(NONE).region(0, -8).message()), "batch 0"),
                views("a view past its variadic buffer", 0, 0, 20, "children[0].buffers[1]"),
                views("a view naming a variadic buffer that is not there", 3, 0, 20, "children[0].buffers[1]"),
                views("a view with a negative offset", 0, -4, 20, "children[0].buffers[1]"),
                new HostileCases("a dictionary index out of range", List.of(IpcFrames.schema(COLOURS),
                        batch(2).node(2, 0).buffer(NONE).buffer(ints(0, 1, 2)).buffer(utf8("ab")).dictionary(0),
                        batch(2).node(2, 0).buffer(NONE).buffer(ints(0, 5)).message()), "children[0].buffers[1]"),
                new HostileCases("a negative dictionary index", List.of(IpcFrames.schema(COLOURS),
                        batch(2).node(2, 0).buffer(NONE).buffer(ints(0, 1, 2)).buffer(utf8("ab")).dictionary(0),
                        batch(2).node(2, 0).buffer(NONE).buffer(ints(1, -1)).message()), "children[0].buffers[1]"),
                new HostileCases("a dictionary whose offsets run past its data", List.of(IpcFrames.schema(COLOURS),
                        batch(2).node(2, 0).buffer(NONE).buffer(ints(0, 1, 4096)).buffer(utf8("ab")).dictionary(0),
                        batch(2).node(2, 0).buffer(NONE).buffer(ints(0, 1)).message()), "dictionary"),
                new HostileCases("a batch before the schema", List.of(
                        batch(1).node(1, 0).buffer(NONE).buffer(longs(1)).message()), "schema", Refuser.NO_SCHEMA));
    }

    /**
     * Malformed streams Arrow Java's reader takes and repairs before Quiver sees them, with what a fetch of
     * the stored put must give back: only bytes that arrived, zeros and nulls, nothing else.
     *
     * @param name     what the stream does wrong
     * @param messages its messages
     * @param served   the values of its one column as served back
     */
    public record Repaired(String name, List<Flight.FlightData> messages, List<Object> served) {
        @Override
        public String toString() {
            return name;
        }
    }

    /** @return streams Arrow Java's reader repairs: node lengths, null counts and offsets it recomputes or grows */
    public static List<Repaired> repaired() {
        List<Object> oneThenZeros = new java.util.ArrayList<>(java.util.Collections.nCopies(16, (Object) 0L));
        oneThenZeros.set(0, 1L);
        java.util.List<Object> oneNull = new java.util.ArrayList<>();
        oneNull.add(null);
        return List.of(
                new Repaired("rows longer than the data buffer, with a validity bitmap (grown with zeros)", List.of(IpcFrames.schema(LONGS),
                        batch(16).node(16, 0).buffer(validity(16, 16)).buffer(longs(1)).message()), oneThenZeros),
                new Repaired("a negative node length under one row (read as a null)", List.of(IpcFrames.schema(LONGS),
                        batch(1).node(-1, 0).buffer(NONE).buffer(longs(1)).message()), oneNull),
                new Repaired("a null count above the length, no bitmap (read as nulls)", List.of(IpcFrames.schema(LONGS),
                        batch(1).node(1, 5).buffer(NONE).buffer(longs(7)).message()), oneNull),
                new Repaired("a null count the bitmap does not have (recomputed from the bitmap)", List.of(IpcFrames.schema(LONGS),
                        batch(2).node(2, 1).buffer(validity(2, 2)).buffer(longs(7, 8)).message()), List.of(7L, 8L)),
                new Repaired("an empty offsets buffer under two rows (read as two empty strings)", List.of(IpcFrames.schema(STRINGS),
                        batch(2).node(2, 0).buffer(NONE).buffer(NONE).buffer(NONE).message()), List.of("", "")));
    }

    /** @return the well-formed stream the cases break: two strings, then two longs in a second stream */
    public static List<Flight.FlightData> wellFormedStrings() {
        return List.of(IpcFrames.schema(STRINGS), batch(2).node(2, 0).buffer(NONE).buffer(ints(0, 3, 8)).buffer(utf8("abcdefgh")).message());
    }

    private static HostileCases strings(String name, byte[] offsets, byte[] data, String names) {
        return new HostileCases(name, List.of(IpcFrames.schema(STRINGS),
                batch(2).node(2, 0).buffer(NONE).buffer(offsets).buffer(data).message()), names);
    }

    private static HostileCases longsBatch(String name, long rows, long length, long nulls, byte[] data, String names) {
        return new HostileCases(name, List.of(IpcFrames.schema(LONGS),
                batch(rows).node(length, nulls).buffer(NONE).buffer(data).message()), names);
    }

    /** A one-row view column whose one view is out of line (20 bytes) in the given buffer at the given offset. */
    private static HostileCases views(String name, int bufferIndex, int offset, int length, String names) {
        byte[] view = new byte[16];
        java.nio.ByteBuffer.wrap(view).order(java.nio.ByteOrder.LITTLE_ENDIAN).putInt(length).put(utf8("abcd")).putInt(bufferIndex).putInt(offset);
        return new HostileCases(name, List.of(IpcFrames.schema(VIEWS),
                batch(1).node(1, 0).buffer(NONE).buffer(view).buffer(utf8("abcdefgh")).variadic(1).message()), names);
    }
}
