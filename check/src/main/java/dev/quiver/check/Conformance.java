package dev.quiver.check;

import dev.quiver.Interchange;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.NativeCalls;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.validate.SchemaReader;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Checks what another implementation of the Arrow C Device Data Interface produces, and reports every
 * violation of the spec it finds, not only the first.
 *
 * <p><b>What is checked.</b> The ArrowDeviceArray fields ({@code reserved} zeroed, {@code device_id}
 * conventions, {@code device_type} codes, {@code sync_event} being a pointer to the event: see
 * {@link Rule} for the list); the ArrowArray tree against the ArrowSchema (the same structural rules
 * {@link dev.quiver.Interchange#importDevice} enforces, collected instead of stopping at the first), and for
 * host memory the buffer contents; that no struct points into itself (structs must be movable); the
 * release callbacks of the whole tree; and for streams, the callbacks, the device type of every array,
 * the end of the stream and error reporting.
 *
 * <p><b>Safety.</b> Before any pointer the producer handed over is read, it is looked up in the process's
 * memory map ({@code /proc/self/maps} on Linux), and callbacks are called only if they point into
 * executable memory: a garbage pointer is reported, not followed. (Where the system publishes no memory
 * map, pointers are trusted and the report says so.) A producer whose callbacks misbehave once called can
 * still crash the process; run the checker in a process of its own, as the {@code quiver check} command
 * does.
 *
 * <p><b>Ownership.</b> The checker consumes what it is given: the structs are moved out (left released)
 * and released exactly once through their own callbacks, whatever the outcome, unless their
 * {@code release} is not callable.
 *
 * <p><b>Threading.</b> Each call is self-contained and may run on any thread; the producer's callbacks are
 * called on the calling thread.
 */
public final class Conformance {
    /** The byte the consumer's structs are filled with before a producer fills them. */
    static final byte POISON = (byte) 0xA5;

    private Conformance() {}

    /**
     * Calls a producer function and checks what it produced. The consumer's structs are first filled with
     * the byte {@code 0xA5}, so that members the producer forgets to write (such as {@code reserved}) show
     * up instead of passing by the luck of zeroed memory.
     *
     * @param function  the address of the producer function, which has the C signature {@code signature}
     * @param signature which of the signatures it has
     * @param devices   backends to ask about events (for example {@link Devices#system()})
     * @param maxArrays for streams, how many arrays to pull at most
     * @return the report; a non-zero return value of the function is a {@link Rule#PRODUCER_ERROR}
     */
    public static ConformanceReport checkProducer(MemorySegment function, ProducerSignature signature, Devices devices, int maxArrays) {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(signature, "signature");
        Collector collector = new Collector();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out;
            MemorySegment schema = MemorySegment.NULL;
            int rc;
            switch (signature) {
                case DEVICE_ARRAY -> {
                    out = poisoned(arena, ArrowDeviceArrayLayout.LAYOUT.byteSize());
                    rc = NativeCalls.callInt(function, out);
                }
                case DEVICE_ARRAY_WITH_SCHEMA -> {
                    out = poisoned(arena, ArrowDeviceArrayLayout.LAYOUT.byteSize());
                    schema = poisoned(arena, ArrowSchemaLayout.LAYOUT.byteSize());
                    rc = NativeCalls.callInt(function, out, schema);
                }
                default -> {
                    out = poisoned(arena, ArrowDeviceArrayStreamLayout.LAYOUT.byteSize());
                    rc = NativeCalls.callInt(function, out);
                }
            }
            collector.refreshMemory();
            if (rc != 0) {
                collector.report(Rule.PRODUCER_ERROR, "return value", "the producer returned " + rc
                        + "; the structs it was given were not read");
                return collector.report();
            }
            if (signature == ProducerSignature.DEVICE_ARRAY_STREAM) {
                StreamCheck.check(out, maxArrays, arena, collector, devices);
            } else {
                deviceArray(out, schema, collector, devices);
            }
        }
        return collector.report();
    }

    /**
     * Checks an ArrowDeviceArray, and its ArrowSchema if given, that a producer filled, then releases
     * both.
     *
     * @param deviceArray a {@code struct ArrowDeviceArray*}; left released
     * @param schema      its {@code struct ArrowSchema*}, or {@link MemorySegment#NULL} if the producer
     *                    gives none (then only the rules that hold for every type are checked on the
     *                    array); left released
     * @param devices     backends to ask about events
     * @return the report
     */
    public static ConformanceReport checkDeviceArray(MemorySegment deviceArray, MemorySegment schema, Devices devices) {
        Collector collector = new Collector();
        deviceArray(deviceArray, schema, collector, devices);
        return collector.report();
    }

    /**
     * Drives an ArrowDeviceArrayStream to its end (or {@code maxArrays}), checking the stream, its schema
     * and every array, then releases everything.
     *
     * @param stream    a {@code struct ArrowDeviceArrayStream*}; left released
     * @param devices   backends to ask about events
     * @param maxArrays how many arrays to pull at most
     * @return the report
     */
    public static ConformanceReport checkStream(MemorySegment stream, Devices devices, int maxArrays) {
        Collector collector = new Collector();
        if (collector.readable(stream, ArrowDeviceArrayStreamLayout.LAYOUT.byteSize(), "stream")) {
            try (Arena arena = Arena.ofConfined()) {
                StreamCheck.check(stream, maxArrays, arena, collector, devices);
            }
        }
        return collector.report();
    }

    private static void deviceArray(MemorySegment deviceArray, MemorySegment schema, Collector collector, Devices devices) {
        if (!collector.readable(deviceArray, ArrowDeviceArrayLayout.LAYOUT.byteSize(), "ArrowDeviceArray")) {
            return;
        }
        Field field = null;
        boolean hasSchema = !schema.equals(MemorySegment.NULL)
                && collector.readable(schema, ArrowSchemaLayout.LAYOUT.byteSize(), "schema");
        if (hasSchema) {
            schema = Pointers.struct(schema, ArrowSchemaLayout.LAYOUT);
            field = SchemaReader.read(schema, "schema", collector);
            collector.checked("ArrowSchema" + (field == null ? "" : ": format \"" + field.type().format() + "\", "
                    + field.children().size() + " children"));
            SelfPointers.check(schema, 0, StructKind.SCHEMA.pointers, "schema", collector);
            SelfPointers.check(StructKind.SCHEMA, StructTree.descendants(StructKind.SCHEMA, schema, "schema", collector), collector);
        }
        if (!hasSchema) {
            collector.note("no ArrowSchema: the array was checked only against the rules that hold for every type");
        } else if (field == null) {
            collector.note("the ArrowSchema's faults leave the type unknown: the array was checked only against the rules "
                    + "that hold for every type");
        }
        DeviceArrayCheck.check(deviceArray, field, "", collector, devices);
        if (hasSchema) {
            ReleaseCheck.release(StructKind.SCHEMA, schema, "schema", collector);
        }
    }

    /** @return {@code size} bytes of the consumer's memory, filled with {@link #POISON} */
    static MemorySegment poisoned(Arena arena, long size) {
        return arena.allocate(size, 8).fill(POISON);
    }
}
