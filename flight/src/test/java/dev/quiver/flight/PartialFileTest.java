package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.arrowjava.LeakChecks;
import dev.quiver.flight.ipc.ArrowIpcWriting;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.stream.StreamException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.stream.Stream;

import static dev.quiver.abi.ArrowDeviceArrayStreamLayout.LAYOUT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * An Arrow IPC file is written whole or not at all: a stream that breaks off after its first batch leaves no
 * file (and no temporary file) behind, and a file already there is left as it was; the error that broke the
 * stream off reaches the caller as the cause, with its type.
 */
class PartialFileTest extends LeakChecks {

    @Test
    void aStreamThatBreaksOffLeavesNoFile(@TempDir Path directory) throws IOException {
        Path file = directory.resolve("fetched.arrow");
        IOException broke = assertThrows(IOException.class, () -> ArrowIpcWriting.file(breaksAfterOne(), file, allocator));
        assertTrue(broke.getCause() instanceof StreamException stream && stream.getCause() instanceof FlightTransferException,
                "the stream's error, and the source's exception as its cause: " + broke.getCause());
        assertFalse(broke.getMessage().contains("get_next: get_next"), broke.getMessage());
        assertFalse(Files.exists(file), "no file");
        try (Stream<Path> left = Files.list(directory)) {
            assertEquals(List.of(), left.toList(), "no temporary file left");
        }
    }

    @Test
    void aFileAlreadyThereIsLeftAsItWas(@TempDir Path directory) throws IOException {
        Path file = Files.writeString(directory.resolve("fetched.arrow"), "what was there");
        assertThrows(IOException.class, () -> ArrowIpcWriting.file(breaksAfterOne(), file, allocator));
        assertEquals("what was there", Files.readString(file));
    }

    /** A stream of the every-type schema: one batch, then the failure a server gone mid-stream gives. */
    private static DeviceArrayStream breaksAfterOne() {
        Iterator<DeviceArray> source = new Iterator<>() {
            private int given;

            @Override
            public boolean hasNext() {
                if (given == 1) {
                    throw new FlightTransferException("flight stream t failed after 1 batch(es) arrived: the server went away", null);
                }
                return true;
            }

            @Override
            public DeviceArray next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                given++;
                return EveryTypeBatches.batch(0).toDeviceArray();
            }
        };
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment out = scratch.allocate(LAYOUT);
            DeviceArrayStream.of(EveryTypeBatches.schema(), DeviceType.CPU, source).exportTo(out);
            return DeviceArrayStream.importFrom(out);
        }
    }
}
