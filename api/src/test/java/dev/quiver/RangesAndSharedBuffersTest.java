package dev.quiver;

import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.testkit.backend.TestDoubleProvider;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Copies of a range through a slice closed at once, a builder that shares another array's buffer and keeps that
 * array alive, a reader that trusts its producer, and copies from and to Java heap memory. The device is a
 * test double (named so) that keeps its memory in host memory.
 */
class RangesAndSharedBuffersTest {
    private final TestDoubleProvider vendor = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
    private final Devices devices = Backends.devices(List.of(vendor, HostProvider.host()), BackendSelection.all());
    private final Device device = devices.get(DeviceType.EXT_DEV, 0);

    @Test
    void aRangeCopiesAsASliceThatIsClosedAtOnce() {
        long exports = Diagnostics.liveExports();
        try (DeviceArray host = HostVector.int64("x", 10L, 11L, null, 13L, 14L).toDeviceArray(devices);
             DeviceArray range = host.slice(1, 3);
             DeviceArray onDevice = Copies.toDevice(range, device);
             DeviceArray back = Copies.toHost(onDevice);
             DeviceArray twoFour = host.slice(2, 2);
             DeviceArray middle = Copies.toHost(twoFour)) {
            assertEquals(3, onDevice.length());
            assertEquals(Arrays.asList(11L, null, 13L), ArrayReader.of(back).values());
            assertEquals(Arrays.asList(null, 13L), ArrayReader.of(middle).values());
        }
        assertEquals(exports, Diagnostics.liveExports(), "no slice left open");
    }

    @Test
    void aRangeCopiesOnAStreamTheCallerNamesAndTheCopyCompletesWithItsEvent() throws InterruptedException {
        long exports = Diagnostics.liveExports();
        try (DeviceStream stream = device.createStream();
             DeviceArray host = HostVector.utf8("s", "a", "bb", null, "dddd", "e").toDeviceArray(devices);
             DeviceArray range = host.slice(1, 3);
             DeviceArray onDevice = Copies.toDevice(range, device, stream)) {
            range.close();
            host.close();   // the upload keeps what it reads alive until it completes
            onDevice.syncEvent().ifPresent(SyncEvent::waitOnHost);
            try (DeviceArray back = Copies.toHost(onDevice)) {
                assertEquals(Arrays.asList("bb", null, "dddd"), ArrayReader.of(back).values());
            }
            IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                    () -> Copies.toDevice(onDevice, devices.cpu(), stream));
            assertTrue(other.getMessage().contains("given for a copy to"), other.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> onDevice.slice(2, 2));
        }
        assertTrue(Diagnostics.awaitStreamOrderReleases(java.time.Duration.ofSeconds(30)), "the upload's hold on its source let go");
        assertEquals(exports, Diagnostics.liveExports(), "no slice left open");
    }

    @Test
    void aRangeOutsideTheArrayIsRefusedAndNothingLeaks() {
        long exports = Diagnostics.liveExports();
        try (DeviceArray host = HostVector.int64("x", 1L, 2L).toDeviceArray(devices)) {
            IndexOutOfBoundsException e = assertThrows(IndexOutOfBoundsException.class, () -> host.slice(1, 2));
            assertTrue(e.getMessage().contains("slice [1, 1 + 2)"), e.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> host.slice(-1, 1));
        }
        assertEquals(exports, Diagnostics.liveExports());
        DeviceArray closed = HostVector.int64("x", 1L).toDeviceArray(devices);
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.slice(0, 1));
    }

    @Test
    void aSharedBufferKeepsItsArrayAliveAfterTheCallerClosesIt() {
        long exports = Diagnostics.liveExports();
        Field field = Field.of("x", new ArrowType.Int(64, true), true);
        DeviceArray input = HostVector.int64("x", 1L, 2L, 3L).toDeviceArray(devices);
        DeviceBuffer validity = devices.cpu().allocate(1);
        validity.asSegment().set(ValueLayout.JAVA_BYTE, 0, (byte) 0b101);
        DeviceArray out = ArrayBuilder.of(field, devices.cpu()).length(3).nullCount(1)
                .buffer(validity)
                .sharedBuffer(input, 1)
                .build();
        input.close();   // the caller lets go at once: out keeps the memory
        try (out) {
            assertEquals(Arrays.asList(1L, null, 3L), ArrayReader.of(out).values());
            assertTrue(Diagnostics.liveExports() > exports, "input's structs live on");
        }
        assertEquals(exports, Diagnostics.liveExports(), "released once out closed");
    }

    @Test
    void sharedBufferMisuseIsRefusedByNameAndNothingLeaks() {
        long exports = Diagnostics.liveExports();
        Field field = Field.of("x", new ArrowType.Int(64, true), false);
        try (DeviceArray input = HostVector.int64("x", 1L, 2L, 3L).toDeviceArray(devices);
             DeviceArray onDevice = Copies.toDevice(input, device)) {
            IllegalArgumentException other = assertThrows(IllegalArgumentException.class,
                    () -> ArrayBuilder.of(field, devices.cpu()).sharedBuffer(onDevice, 1));
            assertTrue(other.getMessage().contains("not of this builder's device CPU:-1"), other.getMessage());
            assertThrows(IndexOutOfBoundsException.class, () -> ArrayBuilder.of(field, devices.cpu()).sharedBuffer(input, 2));
            IllegalArgumentException tooBig = assertThrows(IllegalArgumentException.class,
                    () -> ArrayBuilder.of(field, devices.cpu()).sharedBuffer(input, 1, 25));
            assertTrue(tooBig.getMessage().contains("is more than its 24 bytes"), tooBig.getMessage());
            // a build that fails (length past the shared buffer) lets go of everything
            ArrayBuilder tooLong = ArrayBuilder.of(field, devices.cpu()).length(4).absentBuffer().sharedBuffer(input, 1);
            assertThrows(IllegalArgumentException.class, tooLong::build);
        }
        assertEquals(exports, Diagnostics.liveExports());
        DeviceArray closed = HostVector.int64("x", 1L).toDeviceArray(devices);
        closed.close();
        assertThrows(IllegalStateException.class, () -> ArrayBuilder.of(field, devices.cpu()).sharedBuffer(closed, 1));
    }

    @Test
    void aTrustedReaderSkipsValidationAndAValidatedArrayIsNeverValidatedTwice() {
        try (Arena arena = Arena.ofConfined(); DeviceArray imported = imported(arena, "ab", "cd")) {
            // break the imported UTF-8: an untrusted reader refuses it, a trusted one reads the bytes as they are
            imported.buffer(2).asSegment().set(ValueLayout.JAVA_BYTE, 1, (byte) 0xC3);
            InvalidArrowException refused = assertThrows(InvalidArrowException.class, () -> ArrayReader.of(imported));
            assertTrue(refused.getMessage().contains("not valid UTF-8"), refused.getMessage());
            assertEquals(2, ArrayReader.of(imported, ProducerTrust.TRUSTED).length());
        }
        try (Arena arena = Arena.ofConfined(); DeviceArray imported = imported(arena, "ab")) {
            ArrayReader.of(imported);   // validated here
            imported.buffer(2).asSegment().set(ValueLayout.JAVA_BYTE, 0, (byte) 0xC3);
            ArrayReader.of(imported);   // and not again
            assertThrows(InvalidArrowException.class, () -> Interchange.validateFull(imported), "an explicit validation still runs");
        }
        assertThrows(NullPointerException.class, () -> ArrayReader.of(null, ProducerTrust.TRUSTED));
    }

    /** @return strings exported to C structs and imported back: an array whose contents Quiver did not write */
    private DeviceArray imported(Arena arena, String... values) {
        MemorySegment array = ArrowDeviceArrayLayout.allocate(arena);
        MemorySegment schema = ArrowSchemaLayout.allocate(arena);
        try (DeviceArray strings = HostVector.utf8("s", values).toDeviceArray(devices)) {
            Interchange.exportDevice(strings, array, schema);
        }
        return Interchange.importDevice(array, schema, ImportOptions.on(devices));
    }

    @Test
    void heapMemoryCopiesToAndFromADevice() {
        long[] values = {1, 2, 3, 4};
        try (DeviceBuffer buffer = device.allocate(32)) {
            buffer.copyFromHost(MemorySegment.ofArray(values), 0, device.defaultStream());
            long[] back = new long[4];
            buffer.copyToHost(0, MemorySegment.ofArray(back), device.defaultStream());
            assertArrayEquals(values, back);
            long[] tail = new long[2];
            buffer.copyToHost(16, MemorySegment.ofArray(tail), device.defaultStream());
            assertArrayEquals(new long[] {3, 4}, tail);
            assertThrows(IndexOutOfBoundsException.class,
                    () -> buffer.copyFromHost(MemorySegment.ofArray(new long[5]), 0, device.defaultStream()));
        }
    }
}
