package dev.quiver;

import dev.quiver.spi.BackendDevice;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@code BackendDevice.recordNewEvent} as a plugin that implements only {@code createEvent} and
 * {@code recordEvent} gets it: the two calls in order, and the event destroyed when recording fails, the
 * failure passed on.
 */
class RecordNewEventDefaultTest {

    @Test
    void theDefaultCreatesRecordsAndOnFailureDestroys() {
        List<String> calls = new ArrayList<>();
        IllegalStateException refusal = new IllegalStateException("queue lost");
        BackendDevice device = new EventsOnly(calls, null);
        MemorySegment event = device.recordNewEvent(MemorySegment.ofAddress(0x70_0000L));
        assertEquals(0x60_0000L, event.address());
        assertEquals(List.of("create 600000", "record 600000 on 700000"), calls);

        calls.clear();
        BackendDevice failing = new EventsOnly(calls, refusal);
        assertSame(refusal, assertThrows(IllegalStateException.class, () -> failing.recordNewEvent(MemorySegment.NULL)));
        assertEquals(List.of("create 600000", "record 600000 on 0", "destroy 600000"), calls);
    }

    /** A device with events whose every other method is unused here. */
    private record EventsOnly(List<String> calls, RuntimeException recordFailure) implements BackendDevice {
        @Override
        public MemorySegment createEvent() {
            calls.add("create 600000");
            return MemorySegment.ofAddress(0x60_0000L);
        }

        @Override
        public void recordEvent(MemorySegment event, MemorySegment stream) {
            calls.add("record " + Long.toHexString(event.address()) + " on " + Long.toHexString(stream.address()));
            if (recordFailure != null) {
                throw recordFailure;
            }
        }

        @Override
        public void destroyEvent(MemorySegment event) {
            calls.add("destroy " + Long.toHexString(event.address()));
        }

        @Override
        public boolean supportsEvents() {
            return true;
        }

        @Override
        public int deviceType() {
            return 0;
        }

        @Override
        public long deviceId() {
            return 0;
        }

        @Override
        public String name() {
            return "events only";
        }

        @Override
        public long totalMemory() {
            return -1;
        }

        @Override
        public boolean hostAccessible() {
            return false;
        }

        @Override
        public MemorySegment allocate(long byteSize, long alignment) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void free(MemorySegment pointer) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                     long destinationOffset, long byteCount, MemorySegment stream) {
            throw new UnsupportedOperationException();
        }

        @Override
        public MemorySegment createStream() {
            throw new UnsupportedOperationException();
        }

        @Override
        public void synchronizeStream(MemorySegment stream) {
            throw new UnsupportedOperationException();
        }

        @Override
        public void destroyStream(MemorySegment stream) {
            throw new UnsupportedOperationException();
        }
    }
}
