package dev.quiver.dlpack;

import dev.quiver.InterchangeException;
import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.abi.DLManagedTensorVersionedLayout;
import dev.quiver.host.HostVector;
import dev.quiver.spi.DeviceTypeCodes;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.stream.Stream;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Export rules, each proven against a gcc-built C consumer: of {@code DLManagedTensorVersioned} compiled
 * against our 1.x declarations, and of the legacy {@code DLManagedTensor} compiled against Debian's
 * libdlpack-dev header. The consumers check the producer rules and call the deleter; every test ends with
 * nothing left exported.
 */
class DLPackExportTest {
    static final Devices NONE = Devices.cpuOnly();

    private long dlpackExports;
    private long arrowExports;
    private long callbackFailures;
    private Arena arena;

    @BeforeEach
    void countLiveExports() {
        dlpackExports = DLPack.liveExports();
        arrowExports = Diagnostics.liveExports();
        callbackFailures = Diagnostics.callbackFailures();
        arena = Arena.ofConfined();
    }

    @AfterEach
    void everythingExportedWasReleasedOnce() {
        arena.close();
        assertEquals(dlpackExports, DLPack.liveExports(), "every exported tensor's deleter ran");
        assertEquals(arrowExports, Diagnostics.liveExports(), "every array moved into a tensor was released");
        assertEquals(callbackFailures, Diagnostics.callbackFailures(), "no deleter failed");
    }

    static Stream<Arguments> fixedWidthVectors() {
        return Stream.of(
                Arguments.of("int8", HostVector.integers("v", 8, true, -128L, 0L, 127L), 0, 8),
                Arguments.of("uint8", HostVector.integers("v", 8, false, 255L, 0L, 7L), 1, 8),
                Arguments.of("int16", HostVector.integers("v", 16, true, -32768L, 1L, 32767L), 0, 16),
                Arguments.of("uint16", HostVector.integers("v", 16, false, 65535L, 2L), 1, 16),
                Arguments.of("int32", HostVector.int32("v", Integer.MIN_VALUE, 5, Integer.MAX_VALUE), 0, 32),
                Arguments.of("uint32", HostVector.integers("v", 32, false, 4294967295L, 9L), 1, 32),
                Arguments.of("int64", HostVector.int64("v", Long.MIN_VALUE, -1L, Long.MAX_VALUE), 0, 64),
                Arguments.of("uint64", HostVector.integers("v", 64, false, -1L, 3L), 1, 64),
                Arguments.of("float16", HostVector.floats("v", 16, 1.5, -0.25, 65504.0), 2, 16),
                Arguments.of("float32", HostVector.floats("v", 32, 1.5, -3.25), 2, 32),
                Arguments.of("float64", HostVector.float64("v", Math.PI, -0.0, Double.NaN), 2, 64));
    }

    /** The bytes of the elements of an array, read from its data buffer. */
    static byte[] elementBytes(HostVector vector, int elementSize) {
        try (DeviceArray array = vector.toDeviceArray(NONE)) {
            MemorySegment arrow = Interchange.arrowArray(array);
            long offset = arrow.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
            return dataBuffer(array).reinterpret((offset + array.length()) * elementSize)
                    .asSlice(offset * elementSize, array.length() * elementSize).toArray(JAVA_BYTE);
        }
    }

    static MemorySegment dataBuffer(DeviceArray array) {
        return Interchange.arrowArray(array).get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(16).getAtIndex(ADDRESS, 1);
    }

    static MemorySegment validityBuffer(DeviceArray array) {
        return Interchange.arrowArray(array).get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(16).getAtIndex(ADDRESS, 0);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("fixedWidthVectors")
    void exportsEveryFixedWidthTypeAsAVersioned13TensorZeroCopyWithCpuDeviceIdZero(String name, HostVector vector, int code, int bits) {
        byte[] expected = elementBytes(vector, bits / 8);
        DeviceArray array = vector.toDeviceArray(NONE);
        long buffer = dataBuffer(array).address();
        DLPackExport export = DLPack.exportVersioned(array, DLPackExportOptions.defaults());
        assertTrue(array.isClosed(), "export moves the array into the tensor");
        assertFalse(export.copied());
        CPeers.Consumed c = CPeers.consume(CPeers.Struct.VERSIONED, export.tensor(), expected.length, false, arena).ok();
        assertEquals("v1.3 flags=0 device=1:0 dtype=" + code + ":" + bits + ":1 ndim=1 shape=[" + vector.length()
                + "] strides=[1] byte_offset=0 data=set", c.text());
        assertEquals(buffer, c.dataAddress(), "zero-copy: the tensor's data is the Arrow buffer");
        assertArrayEquals(expected, c.values().toArray(JAVA_BYTE));
    }

    @Test
    void exportsTheLegacyStructToAConsumerBuiltOnDebiansHeader() {
        HostVector vector = HostVector.float64("v", 0.5, 1.5, 2.5, 3.5);
        byte[] expected = elementBytes(vector, 8);
        DeviceArray array = vector.toDeviceArray(NONE);
        long buffer = dataBuffer(array).address();
        DLPackExport export = DLPack.exportLegacy(array, DLPackExportOptions.defaults());
        assertFalse(export.versioned());
        CPeers.Consumed c = CPeers.consume(CPeers.Struct.LEGACY, export.tensor(), expected.length, false, arena).ok();
        assertEquals("device=1:0 dtype=2:64:1 ndim=1 shape=[4] strides=[1] byte_offset=0 data=set", c.text());
        assertEquals(buffer, c.dataAddress());
        assertArrayEquals(expected, c.values().toArray(JAVA_BYTE));
    }

    @Test
    void stridesAreNeverNullWhenNdimIsAboveZero() {
        HostVector vector = HostVector.int32("v", 1, 2, 3, 4, 5, 6);
        byte[] expected = elementBytes(vector, 4);
        for (CPeers.Struct struct : CPeers.Struct.values()) {
            DLPackExportOptions options = DLPackExportOptions.defaults().shape(2, 3);
            DeviceArray array = vector.toDeviceArray(NONE);
            DLPackExport export = struct == CPeers.Struct.VERSIONED ? DLPack.exportVersioned(array, options) : DLPack.exportLegacy(array, options);
            CPeers.Consumed c = CPeers.consume(struct, export.tensor(), expected.length, false, arena).ok();
            assertTrue(c.text().contains("ndim=2 shape=[2,3] strides=[3,1] "), c.text());
            assertArrayEquals(expected, c.values().toArray(JAVA_BYTE));
        }
    }

    @Test
    void ndimZeroExportsAScalarWithoutShapeOrStrides() {
        DeviceArray array = HostVector.int64("v", 42L).toDeviceArray(NONE);
        DLPackExport export = DLPack.exportVersioned(array, DLPackExportOptions.defaults().shape());
        CPeers.Consumed c = CPeers.consume(CPeers.Struct.VERSIONED, export.tensor(), 8, false, arena).ok();
        assertEquals("v1.3 flags=0 device=1:0 dtype=0:64:1 ndim=0 shape=[] strides=NULL byte_offset=0 data=set", c.text());
        assertEquals(42L, c.values().get(JAVA_LONG, 0));
    }

    @Test
    void aTensorWithoutElementsHasNullData() {
        for (CPeers.Struct struct : CPeers.Struct.values()) {
            DeviceArray array = HostVector.int32("v").toDeviceArray(NONE);
            DLPackExport export = struct == CPeers.Struct.VERSIONED
                    ? DLPack.exportVersioned(array, DLPackExportOptions.defaults()) : DLPack.exportLegacy(array, DLPackExportOptions.defaults());
            CPeers.Consumed c = CPeers.consume(struct, export.tensor(), 0, false, arena).ok();
            assertTrue(c.text().endsWith("ndim=1 shape=[0] strides=[1] byte_offset=0 data=NULL"), c.text());
            assertEquals(0, c.dataAddress());
        }
    }

    @Test
    void byteOffsetCarriesTheArrowOffsetAndDataIsTheUnoffsetBufferPointer() {
        HostVector slice = HostVector.int32("v", 10, 11, 12, 13, 14, 15).slice(2, 3);
        byte[] expected = elementBytes(slice, 4);
        DeviceArray array = slice.toDeviceArray(NONE);
        long buffer = dataBuffer(array).address();
        DLPackExport export = DLPack.exportVersioned(array, DLPackExportOptions.defaults());
        CPeers.Consumed c = CPeers.consume(CPeers.Struct.VERSIONED, export.tensor(), expected.length, false, arena).ok();
        assertTrue(c.text().endsWith("shape=[3] strides=[1] byte_offset=8 data=set"), c.text());
        assertEquals(buffer, c.dataAddress(), "the buffer pointer travels unchanged; the offset beside it");
        assertArrayEquals(expected, c.values().toArray(JAVA_BYTE));
    }

    @Test
    void aDeviceIdBeyondInt32IsRefusedAndTheArrayStaysOpen() {
        MemorySegment struct = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
        MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
        Interchange.exportDevice(HostVector.int32("v", 1, 2).toDeviceArray(NONE), struct, schema);
        struct.set(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE, DeviceTypeCodes.EXT_DEV);
        struct.set(JAVA_LONG, ArrowDeviceArrayLayout.DEVICE_ID, 1L << 32);
        try (DeviceArray array = Interchange.importDevice(struct, schema, ImportOptions.on(NONE))) {
            InterchangeException e = assertThrows(InterchangeException.class,
                    () -> DLPack.exportVersioned(array, DLPackExportOptions.defaults()));
            assertEquals("array.device_id", e.fieldPath());
            assertTrue(e.getMessage().contains("int32"), e.getMessage());
            assertFalse(array.isClosed(), "a refused export moves nothing");
        }
    }

    @Test
    void aDeviceTypeDLPackHasNoCodeForIsRefused() {
        MemorySegment struct = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
        MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
        Interchange.exportDevice(HostVector.int32("v", 1).toDeviceArray(NONE), struct, schema);
        struct.set(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE, 19);
        try (DeviceArray array = Interchange.importDevice(struct, schema, ImportOptions.on(NONE))) {
            InterchangeException e = assertThrows(InterchangeException.class,
                    () -> DLPack.exportVersioned(array, DLPackExportOptions.defaults()));
            assertEquals("array.device_type", e.fieldPath());
        }
    }

    @Test
    void booleansAreRefusedWithoutACopyBecauseArrowPacksBits() {
        try (DeviceArray array = HostVector.bool("b", true, false, true).toDeviceArray(NONE)) {
            InterchangeException e = assertThrows(InterchangeException.class,
                    () -> DLPack.exportVersioned(array, DLPackExportOptions.defaults()));
            assertTrue(e.getMessage().contains("bit-packed") && e.getMessage().contains("one byte per value"), e.getMessage());
            assertFalse(array.isClosed());
        }
    }

    @Test
    void booleansExportAsKDLBoolCopiesFlaggedIsCopiedWhenCopiesAreAllowed() {
        HostVector slice = HostVector.bool("b", true, false, true, true, false, false, true, false, true, true).slice(1, 8);
        DeviceArray array = slice.toDeviceArray(NONE);
        long bits = dataBuffer(array).address();
        DLPackExport export = DLPack.exportVersioned(array, DLPackExportOptions.defaults().allowCopy(true));
        assertTrue(export.copied());
        assertEquals(DLManagedTensorVersionedLayout.FLAG_IS_COPIED, new ExportedTensor(export).flags());
        CPeers.Consumed c = CPeers.consume(CPeers.Struct.VERSIONED, export.tensor(), 8, false, arena).ok();
        assertEquals("v1.3 flags=2 device=1:0 dtype=6:8:1 ndim=1 shape=[8] strides=[1] byte_offset=0 data=set", c.text());
        assertNotEquals(bits, c.dataAddress());
        assertArrayEquals(new byte[] {0, 1, 1, 0, 0, 1, 0, 1}, c.values().toArray(JAVA_BYTE));
    }

    @Test
    void isCopiedIsClearWhenNothingWasCopied() {
        DLPackExport export = DLPack.exportVersioned(HostVector.int32("v", 7).toDeviceArray(NONE), DLPackExportOptions.defaults());
        assertFalse(export.copied());
        assertEquals(0, new ExportedTensor(export).flags() & DLManagedTensorVersionedLayout.FLAG_IS_COPIED);
        CPeers.consume(CPeers.Struct.VERSIONED, export.tensor(), 4, false, arena).ok();
    }

    @Test
    void arraysWithNullsAreRefusedByDefault() {
        try (DeviceArray array = HostVector.int32("v", 1, null, 3).toDeviceArray(NONE)) {
            InterchangeException e = assertThrows(InterchangeException.class,
                    () -> DLPack.exportVersioned(array, DLPackExportOptions.defaults()));
            assertEquals("array.null_count", e.fieldPath());
            assertTrue(e.getMessage().contains("SEPARATE_VALIDITY"), e.getMessage());
            assertFalse(array.isClosed());
        }
    }

    @Test
    void arraysWithNullsHandOverTheirValidityBitmapSeparatelyWhenAsked() {
        HostVector slice = HostVector.int32("v", 0, 1, null, 3, null, 5).slice(1, 5);
        DeviceArray array = slice.toDeviceArray(NONE);
        long validityPointer = validityBuffer(array).address();
        DLPackExport export = DLPack.exportVersioned(array, DLPackExportOptions.defaults().nulls(DLPackExportOptions.Nulls.SEPARATE_VALIDITY));
        ValidityBitmap validity = export.validity().orElseThrow();
        assertEquals(new ValidityBitmap(MemorySegment.ofAddress(validityPointer), 1, 5, 2), validity);
        MemorySegment bits = validity.pointer().reinterpret(1);
        boolean[] valid = new boolean[5];
        for (int i = 0; i < 5; i++) {
            long bit = validity.bitOffset() + i;
            valid[i] = (bits.get(JAVA_BYTE, bit / 8) & (1 << (bit % 8))) != 0;
        }
        assertArrayEquals(new boolean[] {true, false, true, false, true}, valid, "the bitmap is alive until the deleter runs");
        CPeers.Consumed c = CPeers.consume(CPeers.Struct.VERSIONED, export.tensor(), 20, false, arena).ok();
        assertEquals(List.of(1, 3, 5), List.of(c.values().getAtIndex(JAVA_INT, 0), c.values().getAtIndex(JAVA_INT, 2), c.values().getAtIndex(JAVA_INT, 4)));
    }

    @Test
    void typesDLPackCannotHoldAreRefused() {
        for (HostVector vector : List.of(HostVector.utf8("s", "a"), HostVector.struct("t", HostVector.int32("x", 1)),
                HostVector.nulls("n", 2))) {
            try (DeviceArray array = vector.toDeviceArray(NONE)) {
                InterchangeException e = assertThrows(InterchangeException.class,
                        () -> DLPack.exportVersioned(array, DLPackExportOptions.defaults()));
                assertEquals("array.type", e.fieldPath());
                assertFalse(array.isClosed());
            }
        }
    }

    @Test
    void aShapeThatDoesNotHoldTheArrayIsRefused() {
        try (DeviceArray array = HostVector.int32("v", 1, 2, 3).toDeviceArray(NONE)) {
            InterchangeException e = assertThrows(InterchangeException.class,
                    () -> DLPack.exportVersioned(array, DLPackExportOptions.defaults().shape(2, 2)));
            assertEquals("shape", e.fieldPath());
        }
    }

    @Test
    void theDeleterMayBeCalledFromAnotherThreadAndReleasesTheArrayOnce() {
        HostVector vector = HostVector.int32("v", 4, 5, 6);
        for (CPeers.Struct struct : CPeers.Struct.values()) {
            DeviceArray array = vector.toDeviceArray(NONE);
            DLPackExport export = struct == CPeers.Struct.VERSIONED
                    ? DLPack.exportVersioned(array, DLPackExportOptions.defaults()) : DLPack.exportLegacy(array, DLPackExportOptions.defaults());
            assertEquals(dlpackExports + 1, DLPack.liveExports());
            CPeers.consume(struct, export.tensor(), 12, true, arena).ok();
            assertEquals(dlpackExports, DLPack.liveExports(), "the deleter, called on a C thread, gave everything back");
        }
    }
}
