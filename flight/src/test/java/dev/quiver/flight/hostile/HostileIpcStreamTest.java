package dev.quiver.flight.hostile;

import dev.quiver.Diagnostics;
import dev.quiver.flight.ipc.ArrowIpcReading;
import dev.quiver.host.ArrayReader;
import dev.quiver.DeviceArray;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The same malformed streams as Arrow IPC streams read with {@link ArrowIpcReading}: each is refused before a
 * batch of it is handed out, naming the field path where Quiver's check finds the fault, and nothing stays
 * allocated or exported (beyond what Arrow Java's reader leaks on its own refusals); the well-formed one
 * reads back intact.
 */
class HostileIpcStreamTest {

    static List<HostileCases> cases() {
        return HostileCases.all();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void aMalformedIpcStreamIsRefused(HostileCases hostile) throws Exception {
        long exportsBefore = Diagnostics.liveExports();
        BufferAllocator allocator = new RootAllocator();
        byte[] bytes = IpcFrames.ipcStream(hostile.messages());
        try (DeviceArrayStream stream = ArrowIpcReading.stream(new ByteArrayInputStream(bytes), allocator)) {
            while (stream.hasNext()) {
                stream.next().close();
                fail("a batch of a malformed stream was handed out");
            }
            fail("the malformed stream ended without an error");
        } catch (Exception refused) {
            if (hostile.refuser() == HostileCases.Refuser.QUIVER) {
                assertTrue(chainMentions(refused, hostile.names()), "the refusal names " + hostile.names() + ": " + refused);
            }
        }
        assertEquals(exportsBefore, Diagnostics.liveExports(), "Quiver exports never released");
        // Arrow Java's stream reader, as its Flight client, keeps the body of a batch sent before the schema
        long bound = hostile.clientLeaks() ? Released.READER_LEAK_BOUND : 0;
        assertTrue(allocator.getAllocatedMemory() <= bound, allocator.getAllocatedMemory() + " bytes left:\n" + allocator.toVerboseString());
        if (bound == 0) {
            allocator.close();
        }
    }

    @Test
    void theWellFormedStreamReadsBackIntact() throws Exception {
        try (BufferAllocator allocator = new RootAllocator();
             DeviceArrayStream stream = ArrowIpcReading.stream(new ByteArrayInputStream(IpcFrames.ipcStream(HostileCases.wellFormedStrings())), allocator)) {
            assertTrue(stream.hasNext());
            try (DeviceArray batch = stream.next(); DeviceArray strings = batch.child(0)) {
                assertEquals(List.of("abc", "defgh"), ArrayReader.of(strings).values());
            }
            assertFalse(stream.hasNext());
        }
    }

    private static boolean chainMentions(Throwable e, String text) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null && t.getMessage().contains(text)) {
                return true;
            }
        }
        return false;
    }
}
