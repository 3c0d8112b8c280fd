package dev.quiver.cai;

import dev.quiver.InterchangeException;
import dev.quiver.Interchange;
import dev.quiver.Copies;
import dev.quiver.ImportOptions;
import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceStream;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.ReadOnlyArrayException;
import dev.quiver.testkit.backend.TestDoubleProvider.StreamWait;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.dlpack.DLPack;
import dev.quiver.dlpack.DLPackExportOptions;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.bridge.ArrayAccess;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CUDA Array Interface v3 as a map: the keys, pointers, read-only flag, masks, strides, streams and the
 * lifetime rule, produced and consumed on the CPU and on a test-double backend serving the CUDA code (which
 * stands in for no hardware: it records which streams were synchronised or made to wait).
 */
class CudaArrayInterfaceTest {
    private static final Devices NONE = Devices.cpuOnly();
    private static final String I4 = (ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN ? "<" : ">") + "i4";

    private final TestDoubleProvider cuda = new TestDoubleProvider("cuda-test-double", DeviceTypeCodes.CUDA, 0);
    private final Devices withCuda = Backends.devices(List.of(cuda), BackendSelection.all());
    private final AtomicInteger released = new AtomicInteger();
    private final ImportOptions options = ImportOptions.defaults().devices(NONE).release(released::incrementAndGet);
    private long arrowExports;

    @BeforeEach
    void count() {
        arrowExports = Diagnostics.liveExports();
    }

    @AfterEach
    void nothingLeaked() {
        assertEquals(arrowExports, Diagnostics.liveExports());
    }

    private static long dataPointer(DeviceArray array) {
        return Interchange.arrowArray(array).get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(16).getAtIndex(ADDRESS, 1).address();
    }

    /** A descriptor of host memory holding {@code values} as int32, in an arena the test owns. */
    private static Map<String, Object> int32Descriptor(Arena arena, List<Long> shape, List<Long> strides, int... values) {
        MemorySegment data = arena.allocateFrom(JAVA_INT, values);
        Map<String, Object> d = new HashMap<>();
        d.put("shape", shape);
        d.put("typestr", I4);
        d.put("data", List.of(data.address(), false));
        d.put("version", 3);
        d.put("strides", strides);
        return d;
    }

    @Test
    void aDescriptorHasTheSpecificationsKeysAndKeepsNothingAlive() {
        try (DeviceArray array = HostVector.int32("v", 1, 2, 3, 4, 5).slice(1, 3).toDeviceArray(NONE)) {
            Map<String, Object> d = CudaArrayInterface.describe(array, CaiDescribeOptions.defaults());
            assertEquals(List.of("shape", "typestr", "data", "version", "strides", "mask", "stream"), new ArrayList<>(d.keySet()));
            assertEquals(List.of(3L), d.get("shape"));
            assertEquals(I4, d.get("typestr"));
            assertEquals(List.of(dataPointer(array) + 4, false), d.get("data"), "the pointer is at the first element of the slice");
            assertEquals(3, d.get("version"));
            assertNull(d.get("strides"), "C-contiguous");
            assertNull(d.get("mask"));
            assertNull(d.get("stream"));
            assertThrows(UnsupportedOperationException.class, () -> d.put("version", 2));
            assertOnlyPlainValues(d);
        }
    }

    /** The lifetime rule: a descriptor holds numbers, strings, booleans, lists and maps; no owner of memory. */
    private static void assertOnlyPlainValues(Object value) {
        if (value instanceof Map<?, ?> map) {
            map.values().forEach(CudaArrayInterfaceTest::assertOnlyPlainValues);
        } else if (value instanceof List<?> list) {
            list.forEach(CudaArrayInterfaceTest::assertOnlyPlainValues);
        } else if (value != null) {
            assertTrue(value instanceof Long || value instanceof Integer || value instanceof String || value instanceof Boolean,
                    "a descriptor keeps nothing alive, but holds a " + value.getClass());
        }
    }

    @Test
    void aDescriptorWithoutElementsPointsAtZero() {
        try (DeviceArray array = HostVector.int32("v").toDeviceArray(NONE)) {
            assertEquals(List.of(0L, false), CudaArrayInterface.describe(array, CaiDescribeOptions.defaults()).get("data"));
        }
    }

    @Test
    void describeAndImportRoundTripZeroCopyOnTheCpuAndTheReleaseRunsOnce() {
        DeviceArray source = HostVector.float64("d", 0.5, 1.5, 2.5).toDeviceArray(NONE);
        Map<String, Object> d = CudaArrayInterface.describe(source, CaiDescribeOptions.defaults());
        DeviceArray imported = CudaArrayInterface.importFrom(d, DeviceType.CPU, -1, options.release(source::close));
        assertEquals(dataPointer(source), dataPointer(imported));
        assertEquals(List.of(0.5, 1.5, 2.5), ArrayReader.of(imported).values());
        imported.close();
        imported.close();
        assertTrue(source.isClosed(), "the release action let go of the described array");
    }

    @Test
    void readOnlyTravelsBothWays() {
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Object> d = int32Descriptor(arena, List.of(2L), null, 3, 4);
            d.put("data", List.of(((List<?>) d.get("data")).get(0), true));
            try (DeviceArray imported = CudaArrayInterface.importFrom(d, DeviceType.CPU, -1, options)) {
                assertTrue(imported.isReadOnly());
                assertThrows(ReadOnlyArrayException.class, () -> ArrayAccess.checkWritable(imported));
                assertEquals(true, ((List<?>) CudaArrayInterface.describe(imported, CaiDescribeOptions.defaults()).get("data")).get(1));
            }
        }
        assertEquals(1, released.get());
    }

    @Test
    void anArrayWithNullsIsRefusedWithoutAMask() {
        try (DeviceArray array = HostVector.int32("v", 1, null).toDeviceArray(NONE)) {
            assertEquals("mask", assertThrows(InterchangeException.class, () -> CudaArrayInterface.describe(array, CaiDescribeOptions.defaults())).fieldPath());
        }
    }

    @Test
    void aMaskIsASecondDescriptorAndImportsAsTheValidityWhenCopiesAreAllowed() {
        HostVector vector = HostVector.int32("v", 0, 1, null, 3, null, 5).slice(1, 5);
        try (DeviceArray array = vector.toDeviceArray(NONE); DeviceArray mask = CudaArrayInterface.validityMask(array)) {
            assertEquals(List.of(1L, 0L, 1L, 0L, 1L), ArrayReader.of(mask).values());
            Map<String, Object> d = CudaArrayInterface.describe(array, CaiDescribeOptions.defaults().mask(mask));
            @SuppressWarnings("unchecked")
            Map<String, Object> m = (Map<String, Object>) d.get("mask");
            assertEquals(List.of("shape", "typestr", "data", "version", "strides", "mask", "stream"), new ArrayList<>(m.keySet()));
            assertEquals("|u1", m.get("typestr"));
            assertEquals(d.get("shape"), m.get("shape"));
            try (DeviceArray imported = CudaArrayInterface.importFrom(d, DeviceType.CPU, -1, options.allowCopy(true))) {
                assertEquals(dataPointer(array) + 4, dataPointer(imported), "the data stays zero-copy; only the mask is packed");
                assertEquals(vector.values(), ArrayReader.of(imported).values());
                assertEquals(2, imported.nullCount());
            }
            InterchangeException e = assertThrows(InterchangeException.class, () -> CudaArrayInterface.importFrom(d, DeviceType.CPU, -1, options));
            assertEquals("mask", e.fieldPath());
        }
        assertEquals(2, released.get(), "released once by close, once by the refused import");
    }

    @Test
    void booleanArraysCannotBeDescribedAndB1DataIsPackedWhenCopiesAreAllowed() {
        try (DeviceArray array = HostVector.bool("b", true, false).toDeviceArray(NONE)) {
            InterchangeException e = assertThrows(InterchangeException.class, () -> CudaArrayInterface.describe(array, CaiDescribeOptions.defaults()));
            assertTrue(e.getMessage().contains("bit-packed"), e.getMessage());
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment bytes = arena.allocateFrom(JAVA_BYTE, (byte) 1, (byte) 0, (byte) 1);
            Map<String, Object> d = Map.of("shape", List.of(3L), "typestr", "|b1", "data", List.of(bytes.address(), false), "version", 3);
            assertEquals("typestr", assertThrows(InterchangeException.class, () -> CudaArrayInterface.importFrom(d, DeviceType.CPU, -1, options)).fieldPath());
            try (DeviceArray imported = CudaArrayInterface.importFrom(d, DeviceType.CPU, -1, options.allowCopy(true))) {
                assertEquals(List.of(true, false, true), ArrayReader.of(imported).values());
            }
        }
        assertEquals(2, released.get());
    }

    @Test
    void stridedDescriptorsAreRefusedOrCopiedWhenAllowed() {
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Object> d = int32Descriptor(arena, List.of(3L), List.of(8L), 1, 0, 2, 0, 3, 0);
            assertEquals("strides[0]", assertThrows(InterchangeException.class, () -> CudaArrayInterface.importFrom(d, DeviceType.CPU, -1, options)).fieldPath());
            try (DeviceArray imported = CudaArrayInterface.importFrom(d, DeviceType.CPU, -1, options.allowCopy(true))) {
                assertEquals(List.of(1L, 2L, 3L), ArrayReader.of(imported).values());
            }
            Map<String, Object> contiguous = int32Descriptor(arena, List.of(2L, 2L), List.of(8L, 4L), 1, 2, 3, 4);
            try (DeviceArray imported = CudaArrayInterface.importFrom(contiguous, DeviceType.CPU, -1, options)) {
                assertEquals(List.of(1L, 2L, 3L, 4L), ArrayReader.of(imported).values());
                assertEquals(Map.of(CudaArrayInterface.SHAPE_METADATA, "2,2"), imported.field().metadata().toMap());
                assertEquals(List.of(2L, 2L), CudaArrayInterface.describe(imported, CaiDescribeOptions.defaults()).get("shape"));
            }
        }
        assertEquals(3, released.get());
    }

    @Test
    void invalidDescriptorsNameTheKeyAndTheReleaseStillRuns() {
        try (Arena arena = Arena.ofConfined()) {
            List<Map.Entry<String, Map<String, Object>>> cases = new ArrayList<>();
            Map<String, Object> noTypestr = int32Descriptor(arena, List.of(1L), null, 1);
            noTypestr.remove("typestr");
            cases.add(Map.entry("typestr", noTypestr));
            Map<String, Object> version1 = int32Descriptor(arena, List.of(1L), null, 1);
            version1.put("version", 1);
            cases.add(Map.entry("version", version1));
            cases.add(Map.entry("shape[0]", int32Descriptor(arena, List.of(-1L), null, 1)));
            Map<String, Object> notAPair = int32Descriptor(arena, List.of(1L), null, 1);
            notAPair.put("data", List.of(5L));
            cases.add(Map.entry("data", notAPair));
            Map<String, Object> nullData = int32Descriptor(arena, List.of(2L), null, 1, 2);
            nullData.put("data", List.of(0L, false));
            cases.add(Map.entry("data[0]", nullData));
            Map<String, Object> streamZero = int32Descriptor(arena, List.of(1L), null, 1);
            streamZero.put("stream", 0L);
            cases.add(Map.entry("stream", streamZero));
            Map<String, Object> wrongStrides = int32Descriptor(arena, List.of(1L), List.of(4L, 4L), 1);
            cases.add(Map.entry("strides", wrongStrides));
            for (Map.Entry<String, Map<String, Object>> c : cases) {
                int before = released.get();
                InterchangeException e = assertThrows(InterchangeException.class, () -> CudaArrayInterface.importFrom(c.getValue(), DeviceType.CPU, -1, options));
                assertEquals(c.getKey(), e.fieldPath());
                assertEquals(before + 1, released.get(), "released exactly once: " + c.getKey());
            }
        }
    }

    @Test
    void hostMemoryHasNoStreams() {
        try (Arena arena = Arena.ofConfined()) {
            Map<String, Object> d = int32Descriptor(arena, List.of(1L), null, 1);
            d.put("stream", 1L);
            assertEquals("stream", assertThrows(InterchangeException.class, () -> CudaArrayInterface.importFrom(d, DeviceType.CPU, -1, options)).fieldPath());
        }
    }

    @Test
    void opaqueHandlesCannotBeDescribed() {
        TestDoubleProvider openCl = new TestDoubleProvider("opencl-test-double", DeviceTypeCodes.OPENCL, 0);
        Devices devices = Backends.devices(List.of(openCl), BackendSelection.all());
        try (DeviceArray host = HostVector.int32("v", 1).toDeviceArray(devices);
             DeviceArray onOpenCl = Copies.toDevice(host, devices.get(DeviceType.OPENCL, 0))) {
            assertEquals("data", assertThrows(InterchangeException.class, () -> CudaArrayInterface.describe(onOpenCl, CaiDescribeOptions.defaults())).fieldPath());
        }
    }

    /** An int32 array on the CUDA test double, carrying the sync event its copy recorded. */
    private DeviceArray onCuda() {
        try (DeviceArray host = HostVector.int32("v", 1, 2, 3).toDeviceArray(withCuda)) {
            return Copies.toDevice(host, withCuda.get(DeviceType.CUDA, 0));
        }
    }

    @Test
    void describeNamesTheProducersStreamAfterMakingItWaitForTheSyncEvent() {
        try (DeviceArray array = onCuda(); DeviceStream producer = withCuda.get(DeviceType.CUDA, 0).createStream()) {
            long event = array.syncEvent().orElseThrow().pointer().reinterpret(8).get(ADDRESS, 0).address();
            Map<String, Object> d = CudaArrayInterface.describe(array, CaiDescribeOptions.defaults().stream(producer));
            assertEquals(producer.handle().address(), d.get("stream"));
            assertEquals(List.of(new StreamWait(producer.handle().address(), event)), cuda.streamWaits);
            Map<String, Object> onDefault = CudaArrayInterface.describe(array, CaiDescribeOptions.defaults().stream(withCuda.get(DeviceType.CUDA, 0).defaultStream()));
            assertEquals(1L, onDefault.get("stream"), "the default stream is named 1, the legacy default: never 0");
            Map<String, Object> none = CudaArrayInterface.describe(array, CaiDescribeOptions.defaults());
            assertNull(none.get("stream"));
            synchronized (cuda.waitedEvents) {
                assertTrue(cuda.waitedEvents.contains(event), "without a stream the event is waited for on the host, so None means ready");
            }
        }
    }

    @Test
    void importSynchronisesOnTheNamedStreamOrMakesTheConsumersStreamWait() {
        DeviceArray array = onCuda();
        Map<String, Object> d = new HashMap<>(CudaArrayInterface.describe(array, CaiDescribeOptions.defaults()));
        ImportOptions onCuda = options.devices(withCuda);
        for (long stream : new long[] {1, 2, 0xABC}) {
            d.put("stream", stream);
            try (DeviceArray imported = CudaArrayInterface.importFrom(d, DeviceType.CUDA, 0, onCuda)) {
                assertEquals(dataPointer(array), dataPointer(imported));
                assertEquals(stream, cuda.streamSyncs.getLast(), "synchronised on the host on the named stream");
            }
        }
        try (DeviceStream consumer = withCuda.get(DeviceType.CUDA, 0).createStream()) {
            d.put("stream", 0xABCL);
            int syncs = cuda.streamSyncs.size();
            try (DeviceArray _ = CudaArrayInterface.importFrom(d, DeviceType.CUDA, 0, onCuda.consumerStream(consumer))) {
                TestDoubleProvider.EventRecord record = cuda.eventRecords.getLast();
                assertEquals(0xABC, record.stream(), "an event recorded on the producer's stream");
                assertEquals(new StreamWait(consumer.handle().address(), record.event()), cuda.streamWaits.getLast());
                assertEquals(syncs, cuda.streamSyncs.size(), "without blocking the host");
            }
        }
        d.put("stream", 0L);
        assertThrows(InterchangeException.class, () -> CudaArrayInterface.importFrom(d, DeviceType.CUDA, 0, onCuda));
        array.close();
        assertEquals(5, released.get());
    }

    @Test
    void aDescribedDLPackImportKeepsItsDeleterWithTheOwnerNotTheDescriptor() {
        DeviceArray source = HostVector.int32("v", 8, 9).toDeviceArray(NONE);
        DeviceArray viaDLPack = DLPack.importVersioned(DLPack.exportVersioned(source, DLPackExportOptions.defaults()).tensor(),
                ImportOptions.defaults().devices(NONE));
        long exports = DLPack.liveExports();
        Map<String, Object> d = CudaArrayInterface.describe(viaDLPack, CaiDescribeOptions.defaults());
        assertEquals(exports, DLPack.liveExports(), "describing took no reference");
        try (DeviceArray imported = CudaArrayInterface.importFrom(d, DeviceType.CPU, -1, options.release(viaDLPack::close))) {
            assertEquals(List.of(8L, 9L), ArrayReader.of(imported).values());
        }
        assertEquals(exports - 1, DLPack.liveExports(), "closing the import ran the release, which gave the tensor back");
        assertInstanceOf(Boolean.class, ((List<?>) d.get("data")).get(1));
    }
}
