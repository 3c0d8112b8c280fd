package dev.quiver.dlpack;

import dev.quiver.InterchangeException;
import dev.quiver.Interchange;
import dev.quiver.Copies;
import dev.quiver.ImportOptions;
import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.ReadOnlyArrayException;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.DLManagedTensorVersionedLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.bridge.ArrayAccess;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import dev.quiver.type.ArrowType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Import rules, each proven with tensors produced by gcc-built C: {@code DLManagedTensorVersioned} from our
 * 1.x declarations and the legacy {@code DLManagedTensor} from Debian's libdlpack-dev header. C counts every
 * deleter call; every test checks the count.
 */
class DLPackImportTest {
    private static final Devices NONE = DLPackExportTest.NONE;
    private final TestDoubleProvider openCl = new TestDoubleProvider("opencl-test-double", DeviceTypeCodes.OPENCL, 0);
    private final Devices withOpenCl = Backends.devices(List.of(openCl), BackendSelection.all());
    private final ImportOptions options = ImportOptions.defaults().devices(NONE);
    private long callbackFailures;
    private long arrowExports;

    @BeforeEach
    void count() {
        callbackFailures = Diagnostics.callbackFailures();
        arrowExports = Diagnostics.liveExports();
    }

    @AfterEach
    void nothingFailedOrLeaked() {
        assertEquals(callbackFailures, Diagnostics.callbackFailures());
        assertEquals(arrowExports, Diagnostics.liveExports(), "every imported array was released");
    }

    private static CPeers.Produced produce(TensorSpec spec) {
        return CPeers.produce(CPeers.Struct.VERSIONED, spec);
    }

    private static ByteBuffer ints(int... values) {
        ByteBuffer buffer = TensorSpec.littleEndian(values.length * 4);
        for (int v : values) {
            buffer.putInt(v);
        }
        return buffer;
    }

    private static List<Object> longs(long... values) {
        List<Object> out = new ArrayList<>();
        for (long v : values) {
            out.add(v);
        }
        return out;
    }

    private static MemorySegment dataBuffer(DeviceArray array) {
        return DLPackExportTest.dataBuffer(array);
    }

    private static long arrowOffset(DeviceArray array) {
        return Interchange.arrowArray(array).get(JAVA_LONG, ArrowArrayLayout.OFFSET);
    }

    /** Imports a tensor that must be rejected, and checks the deleter still ran exactly once. */
    private static <T extends Throwable> T rejected(Class<T> type, CPeers.Produced produced, ImportOptions options) {
        T e = assertThrows(type, () -> {
            if (produced.struct() == CPeers.Struct.VERSIONED) {
                DLPack.importVersioned(produced.tensor(), options).close();
            } else {
                DLPack.importLegacy(produced.tensor(), options).close();
            }
        });
        assertEquals(1, produced.deleterCalls(), "the deleter was called exactly once, before the exception");
        return e;
    }

    @Test
    void importsAVersionedTensorZeroCopyAndCallsTheDeleterOnClose() {
        CPeers.Produced p = produce(TensorSpec.int32(3, 1, 4, 1, 5));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options)) {
            assertEquals(0, p.deleterCalls());
            assertEquals(ArrowType.integer(32, true), array.field().type());
            assertFalse(array.field().nullable());
            assertEquals(DeviceType.CPU, array.deviceType());
            assertEquals(-1, array.deviceId(), "DLPack's CPU device_id 0 is Arrow's -1");
            assertEquals(p.dataAddress(), dataBuffer(array).address(), "zero-copy");
            assertEquals(longs(3, 1, 4, 1, 5), ArrayReader.of(array).values());
        }
        assertEquals(1, p.deleterCalls());
    }

    @Test
    void importsALegacyTensorFromAProducerBuiltOnDebiansHeader() {
        CPeers.Produced p = CPeers.produce(CPeers.Struct.LEGACY, TensorSpec.float64(0.5, -2.0, 8.25).nullStrides());
        try (DeviceArray array = DLPack.importLegacy(p.tensor(), options)) {
            assertEquals(p.dataAddress(), dataBuffer(array).address());
            assertEquals(List.of(0.5, -2.0, 8.25), ArrayReader.of(array).values());
            assertEquals(0, p.deleterCalls());
        }
        assertEquals(1, p.deleterCalls());
    }

    @ParameterizedTest
    @EnumSource(CPeers.Struct.class)
    void theDeleterRunsExactlyOnceWhenClosedConcurrentlyFromOtherThreads(CPeers.Struct struct) throws Exception {
        CPeers.Produced p = CPeers.produce(struct, TensorSpec.int32(1, 2, 3));
        DeviceArray array = struct == CPeers.Struct.VERSIONED ? DLPack.importVersioned(p.tensor(), options) : DLPack.importLegacy(p.tensor(), options);
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> closes = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                closes.add(threads.submit(() -> {
                    start.await();
                    array.close();
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> close : closes) {
                close.get();
            }
        } finally {
            threads.shutdown();
        }
        array.close();
        assertEquals(1, p.deleterCalls());
    }

    @ParameterizedTest
    @EnumSource(CPeers.Struct.class)
    void aNullDeleterIsTolerated(CPeers.Struct struct) {
        CPeers.Produced p = CPeers.produce(struct, TensorSpec.int32(9, 8).withoutDeleter());
        DeviceArray array = struct == CPeers.Struct.VERSIONED ? DLPack.importVersioned(p.tensor(), options) : DLPack.importLegacy(p.tensor(), options);
        assertEquals(longs(9, 8), ArrayReader.of(array).values());
        array.close();
        assertEquals(0, p.deleterCalls(), "there was no deleter to call");
        CPeers.Produced invalid = CPeers.produce(struct, TensorSpec.int32(1).device(5, 0).withoutDeleter());
        assertThrows(InterchangeException.class, () -> (struct == CPeers.Struct.VERSIONED
                ? DLPack.importVersioned(invalid.tensor(), options) : DLPack.importLegacy(invalid.tensor(), options)).close());
    }

    @Test
    void readOnlyTensorsBecomeArraysThatRefuseWrites() {
        CPeers.Produced p = produce(TensorSpec.int32(1, 2).flags(DLManagedTensorVersionedLayout.FLAG_READ_ONLY));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options)) {
            assertTrue(array.isReadOnly());
            assertThrows(ReadOnlyArrayException.class, () -> ArrayAccess.checkWritable(array));
            InterchangeException legacy = assertThrows(InterchangeException.class,
                    () -> DLPack.exportLegacy(array, DLPackExportOptions.defaults()));
            assertTrue(legacy.getMessage().contains("read-only"), legacy.getMessage());
            try (DeviceArray copy = Copies.toHost(array)) {
                assertFalse(copy.isReadOnly(), "a copy is the consumer's own memory");
                ArrayAccess.checkWritable(copy);
            }
        }
        assertEquals(1, p.deleterCalls());
        CPeers.Produced writable = produce(TensorSpec.int32(1, 2));
        try (DeviceArray array = DLPack.importVersioned(writable.tensor(), options)) {
            assertFalse(array.isReadOnly());
            ArrayAccess.checkWritable(array);
        }
    }

    @Test
    void nullStridesMeanContiguousForTheLegacyStructAndVersions1_0And1_1() {
        int[] values = {1, 2, 3, 4, 5, 6};
        TensorSpec spec = TensorSpec.int32(values).shape(2, 3).nullStrides();
        List<CPeers.Produced> produced = List.of(CPeers.produce(CPeers.Struct.LEGACY, spec),
                produce(spec.version(1, 0)), produce(spec.version(1, 1)));
        for (CPeers.Produced p : produced) {
            try (DeviceArray array = p.struct() == CPeers.Struct.LEGACY ? DLPack.importLegacy(p.tensor(), options)
                    : DLPack.importVersioned(p.tensor(), options)) {
                assertEquals(longs(1, 2, 3, 4, 5, 6), ArrayReader.of(array).values());
                assertEquals(Map.of(DLPack.SHAPE_METADATA, "2,3"), array.field().metadata().toMap());
            }
            assertEquals(1, p.deleterCalls());
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {2, 3})
    void nullStridesAreRejectedFromVersion1_2On(int minor) {
        InterchangeException e = rejected(InterchangeException.class, produce(TensorSpec.int32(1, 2).version(1, minor).nullStrides()), options);
        assertEquals("dl_tensor.strides", e.fieldPath());
    }

    @Test
    void aMinorVersionAboveThreeIsAccepted() {
        CPeers.Produced p = produce(TensorSpec.int32(4, 5).version(1, 9));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options)) {
            assertEquals(longs(4, 5), ArrayReader.of(array).values());
        }
        assertEquals(1, p.deleterCalls());
    }

    /** Elements 10, 11, 12, 13 laid out backwards: element 0 is the last int of the buffer. */
    private static TensorSpec backwards() {
        return TensorSpec.int32(13, 12, 11, 10).strides(-1).byteOffset(12);
    }

    @Test
    void negativeStridesAreRejectedClearly() {
        InterchangeException e = rejected(InterchangeException.class, produce(backwards()), options);
        assertEquals("dl_tensor.strides[0]", e.fieldPath());
        assertTrue(e.getMessage().contains("negative stride"), e.getMessage());
    }

    @Test
    void negativeStridesAreCopiedWhenTheCallerAllowsIt() {
        CPeers.Produced p = produce(backwards());
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options.allowCopy(true))) {
            assertEquals(1, p.deleterCalls(), "the tensor was given back as soon as it was copied");
            assertNotEquals(p.dataAddress(), dataBuffer(array).address());
            assertEquals(longs(10, 11, 12, 13), ArrayReader.of(array).values());
        }
        assertEquals(1, p.deleterCalls());
    }

    @Test
    void nonContiguousStridesAreRejectedClearly() {
        InterchangeException e = rejected(InterchangeException.class, produce(TensorSpec.int32(1, 0, 2, 0, 3, 0).shape(3).strides(2)), options);
        assertEquals("dl_tensor.strides[0]", e.fieldPath());
        assertTrue(e.getMessage().contains("non-contiguous stride"), e.getMessage());
    }

    @Test
    void nonContiguousStridesAreCopiedWhenTheCallerAllowsIt() {
        // a 2 x 3 matrix stored column-major: [[1, 2, 3], [4, 5, 6]]
        CPeers.Produced p = produce(TensorSpec.int32(1, 4, 2, 5, 3, 6).shape(2, 3).strides(1, 2));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options.allowCopy(true))) {
            assertEquals(longs(1, 2, 3, 4, 5, 6), ArrayReader.of(array).values());
            assertEquals(Map.of(DLPack.SHAPE_METADATA, "2,3"), array.field().metadata().toMap());
        }
        assertEquals(1, p.deleterCalls());
    }

    @Test
    void stridesOfDimensionsOfExtentOneAreNeverUsed() {
        CPeers.Produced p = produce(TensorSpec.int32(7, 8, 9).shape(3, 1).strides(1, 99));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options)) {
            assertEquals(p.dataAddress(), dataBuffer(array).address(), "still zero-copy");
            assertEquals(longs(7, 8, 9), ArrayReader.of(array).values());
        }
    }

    @Test
    void tensorsWithoutElementsMayHaveNullData() {
        for (TensorSpec spec : List.of(TensorSpec.int32().bytes(null), TensorSpec.int32().shape(2, 0, 3).strides(-5, 7, 1).bytes(null))) {
            CPeers.Produced p = produce(spec);
            try (DeviceArray array = DLPack.importVersioned(p.tensor(), options)) {
                assertEquals(0, array.length());
                assertEquals(List.of(), ArrayReader.of(array).values());
            }
            assertEquals(1, p.deleterCalls());
        }
    }

    @Test
    void nullDataWithElementsIsRejected() {
        InterchangeException e = rejected(InterchangeException.class, produce(TensorSpec.int32(1, 2).bytes(null)), options);
        assertEquals("dl_tensor.data", e.fieldPath());
    }

    @Test
    void ndimZeroIsAScalarOfLengthOneAndExportsAgainAsNdimZero() {
        CPeers.Produced p = produce(TensorSpec.int32(77).shape(new long[0]).nullStrides());
        DeviceArray array = DLPack.importVersioned(p.tensor(), options);
        assertEquals(longs(77), ArrayReader.of(array).values());
        assertEquals(Map.of(DLPack.SHAPE_METADATA, ""), array.field().metadata().toMap());
        DLPackExport export = DLPack.exportVersioned(array, DLPackExportOptions.defaults());
        try (Arena arena = Arena.ofConfined()) {
            CPeers.Consumed c = CPeers.consume(CPeers.Struct.VERSIONED, export.tensor(), 4, false, arena).ok();
            assertTrue(c.text().contains("ndim=0 shape=[] strides=NULL"), c.text());
        }
        assertEquals(1, p.deleterCalls(), "consuming the re-export gave the original back");
    }

    @Test
    void byteOffsetBecomesTheArrowOffsetWhenItIsAMultipleOfTheElementSize() {
        CPeers.Produced p = produce(TensorSpec.int32(0, 0, 5, 6, 7).shape(3).byteOffset(8));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options)) {
            assertEquals(p.dataAddress(), dataBuffer(array).address(), "the pointer is never offset");
            assertEquals(2, arrowOffset(array));
            assertEquals(longs(5, 6, 7), ArrayReader.of(array).values());
        }
    }

    @Test
    void byteOffsetThatIsNotAMultipleIsAddedToAnAddress() {
        byte[] padded = new byte[2 + 8];
        System.arraycopy(ints(21, 22).array(), 0, padded, 2, 8);
        CPeers.Produced p = produce(TensorSpec.int32(21, 22).bytes(padded).byteOffset(2));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options)) {
            assertEquals(p.dataAddress() + 2, dataBuffer(array).address(), "CPU pointers are addresses");
            assertEquals(0, arrowOffset(array));
            assertEquals(longs(21, 22), ArrayReader.of(array).values());
        }
    }

    @Test
    void byteOffsetOnAnOpaqueHandleTravelsBesideItAsTheArrowOffset() {
        CPeers.Produced p = produce(TensorSpec.int32(0, 0, 0, 31, 32).shape(2).byteOffset(12).device(DeviceTypeCodes.OPENCL, 1));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options.devices(withOpenCl))) {
            assertEquals(DeviceType.OPENCL, array.deviceType());
            assertEquals(1, array.deviceId());
            assertEquals(p.dataAddress(), dataBuffer(array).address(), "a cl_mem handle is never offset");
            assertEquals(3, arrowOffset(array));
            try (DeviceArray host = Copies.toHost(array)) {
                assertEquals(longs(31, 32), ArrayReader.of(host).values());
            }
        }
        assertEquals(1, p.deleterCalls());
    }

    @Test
    void byteOffsetOnAnOpaqueHandleThatIsNotAMultipleIsRefused() {
        InterchangeException e = rejected(InterchangeException.class,
                produce(TensorSpec.int32(1, 2, 3).shape(2).byteOffset(6).device(DeviceTypeCodes.OPENCL, 0)), options.devices(withOpenCl));
        assertEquals("dl_tensor.byte_offset", e.fieldPath());
        assertTrue(e.getMessage().contains("opaque handles"), e.getMessage());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 5, 6, 19, 1000, -1})
    void unknownDeviceTypesAreRejectedAndTheDeleterIsStillCalled(int code) {
        for (CPeers.Struct struct : CPeers.Struct.values()) {
            InterchangeException e = rejected(InterchangeException.class, CPeers.produce(struct, TensorSpec.int32(1).device(code, 0)), options);
            assertEquals("dl_tensor.device.device_type", e.fieldPath());
        }
    }

    @Test
    void deviceIdsBecomeArrowDeviceIdsAndNegativeOnesAreRejected() {
        CPeers.Produced p = produce(TensorSpec.int32(1).device(DeviceTypeCodes.CUDA, 3));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options)) {
            assertEquals(DeviceType.CUDA, array.deviceType());
            assertEquals(3, array.deviceId());
        }
        InterchangeException e = rejected(InterchangeException.class, produce(TensorSpec.int32(1).device(DeviceTypeCodes.CUDA, -2)), options);
        assertEquals("dl_tensor.device.device_id", e.fieldPath());
    }

    @ParameterizedTest
    @ValueSource(ints = {18, 99, 255})
    void unknownDtypeCodesAreRejectedAndTheDeleterIsStillCalled(int code) {
        for (CPeers.Struct struct : CPeers.Struct.values()) {
            InterchangeException e = rejected(InterchangeException.class, CPeers.produce(struct, TensorSpec.int32(1).dtype(code, 32, 1)), options);
            assertEquals("dl_tensor.dtype.code", e.fieldPath());
        }
    }

    static Stream<Arguments> dtypesWithoutArrowEquivalent() {
        return Stream.of(Arguments.of("bfloat16", 4, 16, 1, "dl_tensor.dtype.code"), Arguments.of("complex64", 5, 64, 1, "dl_tensor.dtype.code"),
                Arguments.of("opaque handle", 3, 64, 1, "dl_tensor.dtype.code"), Arguments.of("float8_e4m3fn", 10, 8, 1, "dl_tensor.dtype.code"),
                Arguments.of("int32x4", 0, 32, 4, "dl_tensor.dtype.lanes"), Arguments.of("int24", 0, 24, 1, "dl_tensor.dtype.bits"),
                Arguments.of("float8 as kDLFloat", 2, 8, 1, "dl_tensor.dtype.bits"), Arguments.of("1-bit bool", 6, 1, 1, "dl_tensor.dtype.bits"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("dtypesWithoutArrowEquivalent")
    void dtypesWithoutAnArrowEquivalentAreRefusedAndTheDeleterIsStillCalled(String name, int code, int bits, int lanes, String path) {
        InterchangeException e = rejected(InterchangeException.class, produce(TensorSpec.int32(1, 2, 3, 4).dtype(code, bits, lanes).shape(1)), options);
        assertEquals(path, e.fieldPath());
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 2, 7})
    void aMajorVersionOtherThanOneIsRejectedAfterCallingTheDeleterReadingNothingElse(int major) {
        InterchangeException e = rejected(InterchangeException.class, CPeers.produceForeignMajor(major, true), options);
        assertEquals("version.major", e.fieldPath());
        CPeers.Produced withoutDeleter = CPeers.produceForeignMajor(major, false);
        assertThrows(InterchangeException.class, () -> DLPack.importVersioned(withoutDeleter.tensor(), options));
        assertEquals(0, withoutDeleter.deleterCalls());
    }

    static Stream<Arguments> everyFixedWidthDtype() {
        ByteBuffer b = TensorSpec.littleEndian(16);
        b.putLong(0, -2L).putLong(8, 40L);
        byte[] bytes = b.array();
        return Stream.of(
                Arguments.of(0, 8, ArrowType.integer(8, true), longs(-2, -1)),
                Arguments.of(1, 8, ArrowType.integer(8, false), longs(254, 255)),
                Arguments.of(0, 16, ArrowType.integer(16, true), longs(-2, -1)),
                Arguments.of(1, 16, ArrowType.integer(16, false), longs(65534, 65535)),
                Arguments.of(0, 32, ArrowType.integer(32, true), longs(-2, -1)),
                Arguments.of(1, 32, ArrowType.integer(32, false), longs(4294967294L, 4294967295L)),
                Arguments.of(0, 64, ArrowType.integer(64, true), longs(-2, 40)),
                Arguments.of(1, 64, ArrowType.integer(64, false), longs(-2, 40)),
                Arguments.of(2, 16, ArrowType.floatingPoint(16), List.of((double) Float.float16ToFloat((short) 0xfffe), Double.NaN)),
                Arguments.of(2, 32, ArrowType.floatingPoint(32), List.of((double) Float.intBitsToFloat(-2), (double) Float.intBitsToFloat(-1))),
                Arguments.of(2, 64, ArrowType.floatingPoint(64), List.of(Double.longBitsToDouble(-2L), Double.longBitsToDouble(40L))))
                .map(a -> Arguments.of(a.get()[0], a.get()[1], a.get()[2], a.get()[3], bytes));
    }

    @ParameterizedTest(name = "code {0} bits {1}")
    @MethodSource("everyFixedWidthDtype")
    void everyFixedWidthDtypeImportsZeroCopy(int code, int bits, ArrowType type, List<Object> expected, byte[] bytes) {
        CPeers.Produced p = produce(TensorSpec.int32().bytes(bytes).dtype(code, bits, 1).shape(2));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options)) {
            assertEquals(type, array.field().type());
            assertEquals(p.dataAddress(), dataBuffer(array).address());
            assertEquals(expected.toString(), ArrayReader.of(array).values().toString());
        }
    }

    @Test
    void kDLBoolIsRefusedWithoutACopyBecauseArrowPacksBits() {
        TensorSpec bools = TensorSpec.int32().bytes(new byte[] {1, 0, 1}).dtype(6, 8, 1).shape(3);
        InterchangeException e = rejected(InterchangeException.class, produce(bools), options);
        assertEquals("dl_tensor.dtype", e.fieldPath());
        assertTrue(e.getMessage().contains("bit-packed"), e.getMessage());
    }

    @Test
    void kDLBoolIsPackedIntoArrowBooleansWhenCopiesAreAllowed() {
        CPeers.Produced p = produce(TensorSpec.int32().bytes(new byte[] {1, 0, 7, 0, 0, 1, 1, 1, 0, 1}).dtype(6, 8, 1).shape(10));
        try (DeviceArray array = DLPack.importVersioned(p.tensor(), options.allowCopy(true))) {
            assertEquals(1, p.deleterCalls());
            assertEquals(ArrowType.bool(), array.field().type());
            assertEquals(List.of(true, false, true, false, false, true, true, true, false, true), ArrayReader.of(array).values());
        }
    }

    @Test
    void aMultiDimensionalShapeIsKeptAndRestoredOnExport() {
        CPeers.Produced p = produce(TensorSpec.int32(1, 2, 3, 4, 5, 6).shape(3, 2).strides(2, 1));
        DeviceArray array = DLPack.importVersioned(p.tensor(), options.name("matrix"));
        assertEquals("matrix", array.field().name());
        assertEquals(6, array.length());
        DLPackExport export = DLPack.exportVersioned(array, DLPackExportOptions.defaults());
        try (Arena arena = Arena.ofConfined()) {
            CPeers.Consumed c = CPeers.consume(CPeers.Struct.VERSIONED, export.tensor(), 24, false, arena).ok();
            assertTrue(c.text().contains("ndim=2 shape=[3,2] strides=[2,1]"), c.text());
            assertEquals(p.dataAddress(), c.dataAddress(), "zero-copy from C through Java back to C");
        }
        assertEquals(1, p.deleterCalls());
    }
}
