package dev.quiver.check;

import dev.quiver.plugin.Backends;
import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.HostVector;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import dev.quiver.types.TypeCatalogue;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Quiver's own exports, put through its conformance checker: every type of the catalogue, whole and
 * sliced, on the host, and a batch on a device with events. The checker must find nothing, and its release
 * of the exported structs must run every release callback of ours exactly once.
 */
class QuiverExportsConformTest {

    static List<TypeCatalogue.Sample> samples() {
        return TypeCatalogue.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void everyTypeConforms(TypeCatalogue.Sample sample) {
        assertConforms(sample.vector(), Devices.system(), null);
        if (sample.vector().length() > 1) {
            assertConforms(sample.vector().slice(1, sample.vector().length() - 1), Devices.system(), null);
        }
    }

    @Test
    void anArrayOnADeviceWithEventsConforms() {
        Devices devices = Backends.devices(List.of(TestDoubleProvider.of(DeviceTypeCodes.CUDA)), BackendSelection.all());
        HostVector batch = HostVector.struct("t", HostVector.int32("a", 1, null, 3), HostVector.utf8("s", "x", null, "zz"));
        ConformanceReport report = assertConforms(batch, devices, devices.get(DeviceType.CUDA, 1));
        assertTrue(report.checked().contains("ArrowDeviceArray: CUDA:1, length 3, format \"+s\""), report.checked().toString());
    }

    private static ConformanceReport assertConforms(HostVector vector, Devices devices, dev.quiver.Device target) {
        long exports = Diagnostics.liveExports();
        long failures = Diagnostics.callbackFailures();
        ConformanceReport report;
        try (Arena arena = Arena.ofConfined(); DeviceArray host = vector.toDeviceArray(devices)) {
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportDevice((target == null ? host : Copies.toDevice(host, target)), array, schema);
            report = Conformance.checkDeviceArray(array, schema, devices);
        }
        assertEquals(List.of(), report.violations(), vector.field().toString());
        assertEquals(exports, Diagnostics.liveExports(), "the checker released every exported struct");
        assertEquals(failures, Diagnostics.callbackFailures(), "no failure inside a release callback");
        return report;
    }
}
