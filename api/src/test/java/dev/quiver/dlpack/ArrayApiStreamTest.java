package dev.quiver.dlpack;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceStream;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.testkit.backend.TestDoubleProvider.EventRecord;
import dev.quiver.testkit.backend.TestDoubleProvider.StreamWait;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.HostVector;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The array-API {@code stream} argument of DLPack export, over the SPI, proven with test-double backends
 * serving the CUDA, ROCm and OpenCL codes that record which streams waited on which events. The test
 * doubles stand in for no hardware: they prove what Quiver asks of a backend.
 */
class ArrayApiStreamTest {
    private final TestDoubleProvider cuda = new TestDoubleProvider("cuda-test-double", DeviceTypeCodes.CUDA, 0);
    private final TestDoubleProvider rocm = new TestDoubleProvider("rocm-test-double", DeviceTypeCodes.ROCM, 0);
    private final TestDoubleProvider openCl = new TestDoubleProvider("opencl-test-double", DeviceTypeCodes.OPENCL, 0);
    private final Devices devices = Backends.devices(List.of(cuda, rocm, openCl), BackendSelection.all());

    /** An int32 array on device 0 of {@code type}, carrying the sync event its copy recorded. */
    private DeviceArray onDevice(DeviceType type) {
        try (DeviceArray host = HostVector.int32("v", 1, 2, 3).toDeviceArray(devices)) {
            return Copies.toDevice(host, devices.get(type, 0));
        }
    }

    /** The same, without a sync event. */
    private DeviceArray onDeviceWithoutEvent(DeviceType type) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment struct = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportDevice(onDevice(type), struct, schema);
            struct.set(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT, MemorySegment.NULL);
            return Interchange.importDevice(struct, schema, ImportOptions.on(devices));
        }
    }

    private static long eventOf(DeviceArray array) {
        return array.syncEvent().orElseThrow().pointer().reinterpret(ADDRESS.byteSize()).get(ADDRESS, 0).address();
    }

    /** Exports with {@code stream}, then plays the consumer and calls the deleter. */
    private static void exportWithStream(DeviceArray array, Long stream) {
        new ExportedTensor(DLPack.exportVersioned(array, DLPackExportOptions.defaults().stream(stream))).delete();
    }

    /**
     * Exports a fresh array of {@code type} with each stream value in turn.
     *
     * @return the stream waits expected: each resolved consumer stream on the sync event of its array
     */
    private List<StreamWait> exportFreshArrays(DeviceType type, List<Long> streams, List<Long> consumerStreams) {
        List<StreamWait> expected = new ArrayList<>();
        for (int i = 0; i < streams.size(); i++) {
            DeviceArray array = onDevice(type);
            expected.add(new StreamWait(consumerStreams.get(i), eventOf(array)));
            exportWithStream(array, streams.get(i));
        }
        return expected;
    }

    @Test
    void minusOneAsksForNoSynchronisation() {
        for (TestDoubleProvider provider : List.of(cuda, rocm, openCl)) {
            DeviceArray array = onDevice(DeviceType.of(provider.deviceTypes()[0]));
            int records = provider.eventRecords.size();
            exportWithStream(array, -1L);
            assertEquals(List.of(), provider.streamWaits);
            assertEquals(records, provider.eventRecords.size());
        }
    }

    @Test
    void cudaNoneIsTheLegacyDefaultStream() {
        List<Long> none = Collections.singletonList(null);
        assertEquals(exportFreshArrays(DeviceType.CUDA, none, List.of(ArrayApiStream.CUDA_LEGACY_DEFAULT)), cuda.streamWaits);
    }

    @Test
    void cudaOneIsTheLegacyDefaultAndTwoThePerThreadDefaultStream() {
        assertEquals(exportFreshArrays(DeviceType.CUDA, List.of(1L, 2L), List.of(1L, 2L)), cuda.streamWaits);
    }

    @Test
    void cudaZeroIsRejected() {
        try (DeviceArray array = onDevice(DeviceType.CUDA)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> DLPack.exportVersioned(array, DLPackExportOptions.defaults().stream(0L)));
            assertTrue(e.getMessage().contains("stream 0 is disallowed"), e.getMessage());
            assertFalse(array.isClosed(), "nothing was exported");
            assertEquals(List.of(), cuda.streamWaits);
        }
    }

    @Test
    void rocmNoneAndZeroAreTheDefaultStream() {
        assertEquals(exportFreshArrays(DeviceType.ROCM, Arrays.asList(null, 0L), List.of(0L, 0L)), rocm.streamWaits);
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    void rocmOneAndTwoAreRejected(long stream) {
        try (DeviceArray array = onDevice(DeviceType.ROCM)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> DLPack.exportVersioned(array, DLPackExportOptions.defaults().stream(stream)));
            assertTrue(e.getMessage().contains("not supported for ROCM"), e.getMessage());
            assertFalse(array.isClosed());
        }
        assertEquals(List.of(), rocm.streamWaits);
    }

    @Test
    void anyOtherValueIsAStreamHandleMadeToWaitOnTheArraysEvent() {
        assertEquals(exportFreshArrays(DeviceType.CUDA, List.of(0xC0FFEEL), List.of(0xC0FFEEL)), cuda.streamWaits);
        assertEquals(exportFreshArrays(DeviceType.ROCM, List.of(0xBEEFL), List.of(0xBEEFL)), rocm.streamWaits);
    }

    @Test
    void withoutASyncEventTheProducerRecordsAnEventOnItsStreamThatTheConsumerStreamWaitsOn() {
        for (TestDoubleProvider provider : List.of(cuda, rocm)) {
            DeviceType type = DeviceType.of(provider.deviceTypes()[0]);
            DeviceArray array = onDeviceWithoutEvent(type);
            assertTrue(array.syncEvent().isEmpty());
            try (DeviceStream producer = devices.get(type, 0).createStream()) {
                long producerStream = producer.handle().address();
                new ExportedTensor(DLPack.exportVersioned(array, DLPackExportOptions.defaults().stream(0x5EA1L).producerStream(producer))).delete();
                EventRecord record = provider.eventRecords.getLast();
                assertEquals(producerStream, record.stream(), "recorded on the producer's stream");
                assertEquals(List.of(new StreamWait(0x5EA1, record.event())), provider.streamWaits);
                assertTrue(provider.destroyedEvents.contains(record.event()), "the recorded event was destroyed; the wait stays in force");
            }
        }
    }

    @Test
    void cpuArraysTakeOnlyNoneOrMinusOne() {
        Devices none = DLPackExportTest.NONE;
        exportWithStream(HostVector.int32("v", 1).toDeviceArray(none), null);
        exportWithStream(HostVector.int32("v", 1).toDeviceArray(none), -1L);
        try (DeviceArray array = HostVector.int32("v", 1).toDeviceArray(none)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> DLPack.exportVersioned(array, DLPackExportOptions.defaults().stream(1L)));
            assertTrue(e.getMessage().contains("host memory has no streams"), e.getMessage());
        }
    }

    @Test
    void valuesBelowMinusOneAreRejected() {
        try (DeviceArray array = onDevice(DeviceType.CUDA)) {
            assertThrows(IllegalArgumentException.class, () -> DLPack.exportVersioned(array, DLPackExportOptions.defaults().stream(-2L)));
        }
    }

    @Test
    void otherBackendsWithStreamsGetTheRuleToo() {
        assertEquals(exportFreshArrays(DeviceType.OPENCL, Arrays.asList(null, 0x77L), List.of(0L, 0x77L)), openCl.streamWaits,
                "None is the backend's default stream (NULL), other values are its stream handles");
    }

    @Test
    void pinnedAndManagedMemoryFollowTheirVendorsRules() {
        for (DeviceType type : List.of(DeviceType.CUDA, DeviceType.CUDA_HOST, DeviceType.CUDA_MANAGED)) {
            assertEquals(Optional.of(MemorySegment.ofAddress(1)), ArrayApiStream.consumerStream(type, null));
            assertEquals(Optional.of(MemorySegment.ofAddress(2)), ArrayApiStream.consumerStream(type, 2L));
            assertThrows(IllegalArgumentException.class, () -> ArrayApiStream.consumerStream(type, 0L));
            assertEquals(Optional.empty(), ArrayApiStream.consumerStream(type, -1L));
        }
        for (DeviceType type : List.of(DeviceType.ROCM, DeviceType.ROCM_HOST)) {
            assertEquals(Optional.of(MemorySegment.NULL), ArrayApiStream.consumerStream(type, null));
            assertEquals(Optional.of(MemorySegment.NULL), ArrayApiStream.consumerStream(type, 0L));
            assertThrows(IllegalArgumentException.class, () -> ArrayApiStream.consumerStream(type, 1L));
            assertThrows(IllegalArgumentException.class, () -> ArrayApiStream.consumerStream(type, 2L));
            assertEquals(Optional.of(MemorySegment.ofAddress(0x1234)), ArrayApiStream.consumerStream(type, 0x1234L));
        }
    }
}
