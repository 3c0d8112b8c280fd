package dev.quiver;

import dev.quiver.CProducer.Counters;
import dev.quiver.CProducer.Structs;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Assertions of the tests that hand Quiver the structs of broken or hostile C producers (CProducer). */
final class ImportAssertions {
    private ImportAssertions() {}

    /** Asserts that {@code call} throws an InvalidArrowException for {@code path} whose message names the path and {@code rule}. */
    static void assertInvalid(Executable call, String path, String rule) {
        InvalidArrowException e = assertThrows(InvalidArrowException.class, call);
        assertEquals(path, e.fieldPath(), e.getMessage());
        assertTrue(e.getMessage().startsWith(path + ": "), "message names the path: " + e.getMessage());
        assertTrue(e.getMessage().contains(rule), "message names the rule \"" + rule + "\": " + e.getMessage());
    }

    /**
     * Produces case {@code name} and asserts that its import with {@code trust} fails as {@link #assertInvalid}
     * says, after the producer's array and schema were released exactly once and both structs were left
     * marked released.
     */
    static void assertImportRejected(String name, ProducerTrust trust, String path, String rule) {
        try (Arena arena = Arena.ofConfined()) {
            Counters beforeProduce = CProducer.counters();
            Structs c = CProducer.produce(arena, name);
            Counters afterProduce = CProducer.counters();

            assertInvalid(() -> Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS).trust(trust)), path, rule);

            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
            assertEquals(MemorySegment.NULL, c.array().get(ADDRESS, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE));
            assertEquals(MemorySegment.NULL, c.schema().get(ADDRESS, ArrowSchemaLayout.RELEASE));
        }
    }
}
