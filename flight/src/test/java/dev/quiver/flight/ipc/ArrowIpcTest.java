package dev.quiver.flight.ipc;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.LeakChecks;
import dev.quiver.flight.TestStreams;
import dev.quiver.host.ArrayReader;
import dev.quiver.stream.DeviceArrayStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Device streams to Arrow IPC files and streams and back: every type from Vulkan through a file, and
 * dictionaries that change between batches from OpenCL through the streaming format, every value compared;
 * a file that is not Arrow IPC is refused with a clear message; nothing stays allocated ({@link LeakChecks}).
 */
class ArrowIpcTest extends LeakChecks {

    @Test
    void everyTypeFromVulkanThroughAnIpcFile(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("every-type.arrow");
        Device vulkan = Devices.system().get(DeviceType.VULKAN, 0);
        assertEquals(TestStreams.everyTypeBatches(), ArrowIpcWriting.file(TestStreams.everyType(vulkan), file, allocator));
        try (DeviceArrayStream read = ArrowIpcReading.file(file, allocator)) {
            TestStreams.assertEveryType(read, Devices.system().cpu());
        }
    }

    @Test
    void changingDictionariesFromOpenClThroughAnIpcStream() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        Device opencl = Devices.system().get(DeviceType.OPENCL, 0);
        assertEquals(TestStreams.dictionaryBatches(), ArrowIpcWriting.stream(TestStreams.dictionaries(opencl, true), bytes, allocator));
        try (DeviceArrayStream read = ArrowIpcReading.stream(new ByteArrayInputStream(bytes.toByteArray()), allocator)) {
            for (int b = 0; b < TestStreams.dictionaryBatches(); b++) {
                try (DeviceArray batch = read.next(); DeviceArray colours = batch.child(0)) {
                    assertEquals(TestStreams.colours(b, true), ArrayReader.of(colours).values(), "colours of batch " + b);
                }
            }
            assertTrue(!read.hasNext());
        }
    }

    @Test
    void aFileThatIsNotArrowIpcIsRefused(@TempDir Path directory) throws IOException {
        Path file = Files.writeString(directory.resolve("notes.arrow"), "not Arrow data at all");
        IOException refused = assertThrows(IOException.class, () -> ArrowIpcReading.file(file, allocator).close());
        assertTrue(refused.getMessage().contains("notes.arrow"), refused.getMessage());
    }

    @Test
    void aFileInEitherFormatIsReadByItsFirstBytes(@TempDir Path directory) throws IOException {
        Path fileFormat = directory.resolve("every-type.arrow");
        ArrowIpcWriting.file(TestStreams.everyType(Devices.system().cpu()), fileFormat, allocator);
        Path streamFormat = directory.resolve("every-type.arrows");
        try (java.io.OutputStream out = Files.newOutputStream(streamFormat)) {
            ArrowIpcWriting.stream(TestStreams.everyType(Devices.system().cpu()), out, allocator);
        }
        for (Path file : java.util.List.of(fileFormat, streamFormat)) {
            try (DeviceArrayStream read = ArrowIpcReading.fileOrStream(file, allocator)) {
                TestStreams.assertEveryType(read, Devices.system().cpu());
            }
        }
        Path neither = Files.writeString(directory.resolve("notes.arrow"), "not Arrow data at all");
        IOException refused = assertThrows(IOException.class, () -> ArrowIpcReading.fileOrStream(neither, allocator).close());
        assertTrue(refused.getMessage().contains("notes.arrow"), refused.getMessage());
    }
}
