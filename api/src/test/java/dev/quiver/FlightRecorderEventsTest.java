package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.HostVector;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.testkit.backend.TestDoubleProvider;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JDK Flight Recorder recording around a copy, an export, an import, a release and a stream round trip
 * holds their events with device, field, length and bytes, as {@code jfr print} would show them. The
 * device is a test double; no duration is checked.
 */
class FlightRecorderEventsTest {
    private static final List<String> EVENTS = List.of("dev.quiver.ArrayImport", "dev.quiver.ArrayExport",
            "dev.quiver.ArrayRelease", "dev.quiver.ArrayCopy", "dev.quiver.StreamBatch");

    private final TestDoubleProvider provider = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
    private final Devices devices = Backends.devices(List.of(provider), BackendSelection.all());
    private final Device device = devices.get(DeviceType.EXT_DEV, 0);

    @Test
    void aRecordingHoldsTheEventsOfACopyAnExportAnImportAndARelease(@TempDir Path dir) throws IOException {
        List<RecordedEvent> events = record(dir, () -> {
            try (Arena arena = Arena.ofConfined();
                 DeviceArray host = HostVector.int64("x", 1L, null, 3L).toDeviceArray(devices);
                 DeviceArray onDevice = Copies.toDevice(host, device)) {
                MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
                MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
                Interchange.exportDevice(onDevice, array, schema);
                Interchange.importDevice(array, schema, ImportOptions.on(devices)).close();
            }
        });
        RecordedEvent copy = one(events, "dev.quiver.ArrayCopy");
        assertEquals("CPU:-1", copy.getString("device"));
        assertEquals("EXT_DEV:0", copy.getString("target"));
        assertEquals("x", copy.getString("field"));
        assertEquals(3, copy.getLong("length"));
        assertTrue(copy.getLong("bytes") >= 3 * Long.BYTES, copy.toString());
        RecordedEvent export = one(events, "dev.quiver.ArrayExport");
        assertEquals("EXT_DEV:0", export.getString("device"));
        assertFalse(export.getBoolean("shared"));
        assertEquals(3, export.getLong("length"));
        Predicate<RecordedEvent> ofTheCopy = e -> e.getString("device").equals("EXT_DEV:0") && e.getString("field").equals("x")
                && e.getLong("length") == 3;
        assertEquals(1, select(events, "dev.quiver.ArrayImport", ofTheCopy).size(),
                "the explicit import only: a copy adopts the structs it wrote, recorded by its ArrayCopy event");
        assertEquals(1, select(events, "dev.quiver.ArrayRelease", ofTheCopy).size(), "the imported array, closed");
    }

    @Test
    void aStreamRoundTripRecordsEveryBatchBothWays(@TempDir Path dir) throws IOException {
        List<RecordedEvent> events = record(dir, () -> {
            HostVector first = HostVector.int64("batch", 1L, 2L);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment out = arena.allocate(ArrowDeviceArrayStreamLayout.LAYOUT);
                DeviceArrayStream.of(first.field(), DeviceType.CPU, List.of(first.toDeviceArray(devices), HostVector.int64("batch", 3L).toDeviceArray(devices))
                        .iterator()).exportTo(out);
                try (DeviceArrayStream stream = DeviceArrayStream.importFrom(out, ImportOptions.on(devices))) {
                    stream.forEachRemaining(DeviceArray::close);
                }
            }
        });
        for (String kind : List.of("pull export", "pull import")) {
            List<RecordedEvent> batches = select(events, "dev.quiver.StreamBatch", e -> e.getString("stream").equals(kind));
            assertEquals(List.of(0L, 1L), batches.stream().map(e -> e.getLong("index")).toList(), kind);
            assertEquals(List.of(2L, 1L), batches.stream().map(e -> e.getLong("length")).toList(), kind);
            assertTrue(batches.stream().allMatch(e -> e.getString("device").equals("CPU:-1") && e.getString("field").equals("batch")), kind);
        }
    }

    private static List<RecordedEvent> record(Path dir, Runnable work) throws IOException {
        Path file = dir.resolve("quiver.jfr");
        try (Recording recording = new Recording()) {
            EVENTS.forEach(recording::enable);
            recording.start();
            work.run();
            recording.stop();
            recording.dump(file);
        }
        return RecordingFile.readAllEvents(file);
    }

    private static List<RecordedEvent> select(List<RecordedEvent> events, String name, Predicate<RecordedEvent> filter) {
        return events.stream().filter(e -> e.getEventType().getName().equals(name)).filter(filter)
                .sorted(Comparator.comparing(RecordedEvent::getStartTime)).toList();
    }

    private static RecordedEvent one(List<RecordedEvent> events, String name) {
        List<RecordedEvent> found = select(events, name, e -> true);
        assertEquals(1, found.size(), name + " in " + events);
        return found.getFirst();
    }
}
