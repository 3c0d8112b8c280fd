package dev.quiver.snippets;

import dev.quiver.ArrayBuilder;
import dev.quiver.Interchange;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceFeature;
import dev.quiver.DeviceRanking;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.ProviderReport;
import dev.quiver.SyncEvent;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.foreign.ValueLayout;

/** The examples in the documentation of package {@code dev.quiver}, compiled with the tests. */
final class ApiSnippets {
    private ApiSnippets() {}

    static void importFrom(MemorySegment deviceArrayPointer, MemorySegment schemaPointer) {
        // @start region="import"
        try (DeviceArray batch = Interchange.importDevice(deviceArrayPointer, schemaPointer)) {
            System.out.println(batch.field() + " on " + batch.deviceType() + ", " + batch.length() + " rows");
            batch.syncEvent().ifPresent(SyncEvent::waitOnHost);
        }
        // @end
    }

    static void build(MemorySegment arrowDeviceArray, MemorySegment arrowSchema) {
        // @start region="build"
        Device device = Devices.system().cpu();
        DeviceBuffer values = device.allocate(3 * Long.BYTES);
        MemorySegment.copy(new long[] {1, 2, 3}, 0, values.asSegment(), ValueLayout.JAVA_LONG, 0, 3);
        try (DeviceArray column = ArrayBuilder.of(Field.of("x", new ArrowType.Int(64, true), false), device)
                .length(3).nullCount(0)
                .absentBuffer()          // no validity bitmap
                .buffer(values)          // moved in: the array frees it on release
                .build()) {
            Interchange.exportDevice(column, arrowDeviceArray, arrowSchema);
        }
        // @end
    }

    static void report() {
        // @start region="report"
        for (ProviderReport provider : Devices.system().report()) {
            System.out.println(provider.name() + " " + provider.status() + " " + provider.reasons());
        }
        Device cpu = Devices.system().get(DeviceType.CPU, -1);
        // @end
        System.out.println(cpu);
    }

    static void best() {
        // @start region="best"
        Devices devices = Devices.system();
        Device device = devices.best(d -> d.type().equals(DeviceType.OPENCL) && d.supports(DeviceFeature.EVENTS))
                .orElse(devices.cpu());
        DeviceRanking ranking = DeviceRanking.fromEnvironment();
        System.out.println("computing on " + ranking.explain(device));
        // @end
    }

    static void vendorLibrary(Device device) {
        // @start region="vendorLibrary"
        // bind to the OpenCL library Quiver loaded, not to another copy
        SymbolLookup openCl = device.vendorLibrary().orElseThrow().lookup();
        MemorySegment clFinish = openCl.find("clFinish").orElseThrow();
        // @end
    }
}
