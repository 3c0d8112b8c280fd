package dev.quiver;

import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.ReadableMemory;
import dev.quiver.testkit.CLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The C producer of {@code producer*.c}: builds named arrays (well-formed or broken on purpose) in host
 * memory and counts, per library, every call of its release callbacks.
 */
final class CProducer {
    static final CLibrary LIBRARY = CLibrary.fromResources(CProducer.class,
            List.of("producer.h", "producer.c", "producer_cases.c", "producer_bad.c", "producer_hostile.c"), List.of());
    private static final MethodHandle PRODUCE = LIBRARY.function("produce",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle COUNTERS = LIBRARY.function("producer_counters",
            FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle RELEASE = LIBRARY.function("producer_release",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));

    /** Devices without providers: enough for CPU arrays without events. */
    static final Devices NO_BACKENDS = Devices.cpuOnly();

    private CProducer() {}

    /**
     * The producer's struct memory for one array: an ArrowDeviceArray and an ArrowSchema.
     *
     * @param array  the ArrowDeviceArray
     * @param schema the ArrowSchema
     */
    record Structs(MemorySegment array, MemorySegment schema) {}

    /**
     * @param arena      where the two structs live
     * @param name       a case of producer_cases.c, producer_bad.c or producer_hostile.c
     * @param deviceType the device type code to put in the struct
     * @return the filled structs, owned by the caller until moved; the process's map of readable memory is
     *         current for them
     */
    static Structs produce(Arena arena, String name, int deviceType) {
        MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
        MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
        try (Arena scratch = Arena.ofConfined()) {
            int rc = (int) PRODUCE.invokeExact(scratch.allocateFrom(name), deviceType, array, schema);
            if (rc != 0) {
                throw new IllegalArgumentException("producer has no case " + name + " (rc " + rc + ")");
            }
            // The cached map of readable memory may predate the guard pages a hostile case just mapped and
            // still show memory unmapped since, where a guard page may now lie, as readable (see
            // ReadableMemory); an address never mapped (the NULL page) misses it and has it taken again.
            ReadableMemory.readableBytes(MemorySegment.ofAddress(0x10), 1);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
        return new Structs(array, schema);
    }

    /** @return a CPU array (device_type 1) of case {@code name} */
    static Structs produce(Arena arena, String name) {
        return produce(arena, name, 1);
    }

    /**
     * Calls the release callbacks still set in the given structs, from C.
     *
     * @return true if both are released afterwards
     */
    static boolean releaseFromC(MemorySegment deviceArray, MemorySegment schema) {
        try {
            return (int) RELEASE.invokeExact(deviceArray, schema) == 0;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** @return the producer's counters now */
    static Counters counters() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG, 16);
            int n = (int) COUNTERS.invokeExact(out);
            if (n != 7) {
                throw new AssertionError("producer_counters returned " + n + " counters, expected 7");
            }
            return new Counters(out.getAtIndex(JAVA_LONG, 0), out.getAtIndex(JAVA_LONG, 1), out.getAtIndex(JAVA_LONG, 2),
                    out.getAtIndex(JAVA_LONG, 3), out.getAtIndex(JAVA_LONG, 4), out.getAtIndex(JAVA_LONG, 5),
                    out.getAtIndex(JAVA_LONG, 6));
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /**
     * Asserts that since {@code afterProduce} the top-level array and schema were each released exactly
     * once, that every node made since {@code beforeProduce} is freed, and that no release callback ran on
     * a struct that was already released.
     */
    static void assertReleasedExactlyOnce(Counters beforeProduce, Counters afterProduce) {
        Counters now = counters();
        Counters delta = now.since(afterProduce);
        assertEquals(1, delta.rootArrayReleases(), "top-level ArrowArray releases");
        assertEquals(1, delta.rootSchemaReleases(), "top-level ArrowSchema releases");
        assertEquals(beforeProduce.liveArrayNodes(), now.liveArrayNodes(), "array nodes made by the producer and not freed");
        assertEquals(beforeProduce.liveSchemaNodes(), now.liveSchemaNodes(), "schema nodes made by the producer and not freed");
        assertEquals(0, now.since(beforeProduce).releasesOfReleased(), "release called on an already released struct");
    }

    /** Asserts that nothing was released since {@code earlier}. */
    static void assertNothingReleasedSince(Counters earlier) {
        Counters delta = counters().since(earlier);
        assertEquals(0, delta.arrayReleases(), "array releases");
        assertEquals(0, delta.schemaReleases(), "schema releases");
        assertEquals(0, delta.releasesOfReleased(), "release called on an already released struct");
    }

    /**
     * The producer's release counters (or their change between two readings).
     *
     * @param rootArrayReleases   releases of top-level arrays
     * @param rootSchemaReleases  releases of top-level schemas
     * @param arrayReleases       releases of array nodes at any level
     * @param schemaReleases      releases of schema nodes at any level
     * @param liveArrayNodes      array nodes made and not released
     * @param liveSchemaNodes     schema nodes made and not released
     * @param releasesOfReleased  release callbacks called on a struct that was already released
     */
    record Counters(long rootArrayReleases, long rootSchemaReleases, long arrayReleases, long schemaReleases,
                    long liveArrayNodes, long liveSchemaNodes, long releasesOfReleased) {

        /** @return this minus {@code earlier}, field by field */
        Counters since(Counters earlier) {
            return new Counters(rootArrayReleases - earlier.rootArrayReleases, rootSchemaReleases - earlier.rootSchemaReleases,
                    arrayReleases - earlier.arrayReleases, schemaReleases - earlier.schemaReleases,
                    liveArrayNodes - earlier.liveArrayNodes, liveSchemaNodes - earlier.liveSchemaNodes,
                    releasesOfReleased - earlier.releasesOfReleased);
        }
    }
}
