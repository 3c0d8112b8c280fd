package dev.quiver.dlpack;

import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.Diagnostics;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.Arena;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Round trips on the CPU through both structs: Java to Java, and C to Java to C, zero-copy all the way, with
 * every deleter counted.
 */
class DLPackRoundTripTest {
    private static final ImportOptions IMPORT = ImportOptions.defaults().devices(DLPackExportTest.NONE);

    private static DLPackExport export(CPeers.Struct struct, DeviceArray array) {
        return struct == CPeers.Struct.VERSIONED
                ? DLPack.exportVersioned(array, DLPackExportOptions.defaults()) : DLPack.exportLegacy(array, DLPackExportOptions.defaults());
    }

    private static DeviceArray importFrom(CPeers.Struct struct, java.lang.foreign.MemorySegment tensor) {
        return struct == CPeers.Struct.VERSIONED ? DLPack.importVersioned(tensor, IMPORT) : DLPack.importLegacy(tensor, IMPORT);
    }

    @ParameterizedTest
    @EnumSource(CPeers.Struct.class)
    void javaToJava(CPeers.Struct struct) {
        long dlpackExports = DLPack.liveExports();
        long arrowExports = Diagnostics.liveExports();
        for (HostVector vector : List.of(HostVector.int32("v", 1, 2, 3), HostVector.floats("h", 16, 0.5, -1.0),
                HostVector.integers("u", 64, false, -1L, 0L).slice(1, 1), HostVector.float64("e"))) {
            DeviceArray array = vector.toDeviceArray(DLPackExportTest.NONE);
            long buffer = DLPackExportTest.dataBuffer(array).address();
            DLPackExport export = export(struct, array);
            try (DeviceArray back = importFrom(struct, export.tensor())) {
                assertEquals(vector.field().type(), back.field().type());
                assertEquals(vector.values(), ArrayReader.of(back).values());
                if (vector.length() > 0) {
                    assertEquals(buffer, DLPackExportTest.dataBuffer(back).address());
                }
            }
        }
        assertEquals(dlpackExports, DLPack.liveExports());
        assertEquals(arrowExports, Diagnostics.liveExports());
    }

    @Test
    void cToJavaToCThroughBothStructs() {
        for (CPeers.Struct struct : CPeers.Struct.values()) {
            CPeers.Produced produced = CPeers.produce(struct, TensorSpec.int32(11, 22, 33, 44));
            DeviceArray array = importFrom(struct, produced.tensor());
            DLPackExport export = export(struct, array);
            try (Arena arena = Arena.ofConfined()) {
                CPeers.Consumed consumed = CPeers.consume(struct, export.tensor(), 16, false, arena).ok();
                assertEquals(produced.dataAddress(), consumed.dataAddress());
                assertEquals(List.of(11, 22, 33, 44), List.of(consumed.values().getAtIndex(JAVA_INT, 0), consumed.values().getAtIndex(JAVA_INT, 1),
                        consumed.values().getAtIndex(JAVA_INT, 2), consumed.values().getAtIndex(JAVA_INT, 3)));
            }
            assertEquals(1, produced.deleterCalls(), "the consumer's deleter call reached the producer exactly once");
        }
    }
}
