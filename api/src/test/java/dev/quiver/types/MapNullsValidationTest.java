package dev.quiver.types;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.AbstractMap.SimpleImmutableEntry;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Neither a map's entries nor its keys may be null (Arrow C++ refuses both). A null_count of -1 means
 * "not computed", never "no nulls": then the validity bitmap is counted.
 */
class MapNullsValidationTest {
    private static final Field ENTRIES = Field.of("entries", new ArrowType.Struct(), false, List.of(
            Field.of("key", new ArrowType.Utf8(), true), Field.of("value", new ArrowType.Int(32, true), true)));
    private static final Field MAP = Field.of("m", new ArrowType.MapType(false), true, List.of(ENTRIES));

    private static HostVector map(String secondKey) {
        return HostVector.of(MAP, List.of(List.of(new SimpleImmutableEntry<>("k", 1L)), List.of(new SimpleImmutableEntry<>(secondKey, 2L))));
    }

    private static MemorySegment child(MemorySegment array, int k) {
        long n = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        return array.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(n * 8).getAtIndex(ADDRESS, k).reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
    }

    private static MemorySegment buffers(MemorySegment array) {
        return array.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS) * 8);
    }

    private static void expect(DeviceArray array, String path, String rule) {
        InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> Interchange.validateFull(array));
        assertEquals(path, e.fieldPath(), e.getMessage());
        assertTrue(e.getMessage().contains(rule), e.getMessage());
    }

    @Test
    void aNullKeyIsFoundInTheBitmapWhenTheNullCountIsUnknown() {
        try (DeviceArray array = map(null).toDeviceArray(EveryTypeThroughCTest.NONE)) {
            MemorySegment keys = child(child(Interchange.arrowArray(array), 0), 0);
            assertEquals(1, keys.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT));
            keys.set(JAVA_LONG, ArrowArrayLayout.NULL_COUNT, -1);
            expect(array, "children[0].children[0].buffers[0]", "map keys must not be null: null_count is -1 and the validity bitmap has 1 nulls");
        }
    }

    @Test
    void keysWithAnUnknownNullCountAndNoNullInTheBitmapPass() {
        try (DeviceArray array = map("k2").toDeviceArray(EveryTypeThroughCTest.NONE); Arena arena = Arena.ofConfined()) {
            MemorySegment keys = child(child(Interchange.arrowArray(array), 0), 0);
            MemorySegment keyBuffers = buffers(keys);
            MemorySegment before = keyBuffers.getAtIndex(ADDRESS, 0);
            keyBuffers.setAtIndex(ADDRESS, 0, arena.allocate(8, 64).fill((byte) 0xFF));
            keys.set(JAVA_LONG, ArrowArrayLayout.NULL_COUNT, -1);
            try {
                assertDoesNotThrow(() -> Interchange.validateFull(array));
            } finally {
                keyBuffers.setAtIndex(ADDRESS, 0, before);
            }
        }
    }

    @Test
    void aNullEntryIsRefusedWhetherCountedOrUnknown() {
        for (long nullCount : new long[] {1, -1}) {
            try (DeviceArray array = map("k2").toDeviceArray(EveryTypeThroughCTest.NONE); Arena arena = Arena.ofConfined()) {
                MemorySegment entries = child(Interchange.arrowArray(array), 0);
                MemorySegment entryBuffers = buffers(entries);
                MemorySegment before = entryBuffers.getAtIndex(ADDRESS, 0);
                // entry 1 (the second map's only entry) is null
                MemorySegment bitmap = arena.allocate(8, 64);
                bitmap.set(JAVA_BYTE, 0, (byte) 0b01);
                entryBuffers.setAtIndex(ADDRESS, 0, bitmap);
                entries.set(JAVA_LONG, ArrowArrayLayout.NULL_COUNT, nullCount);
                try {
                    if (nullCount > 0) {
                        expect(array, "children[0].null_count", "map entries must not be null: null_count is 1");
                    } else {
                        expect(array, "children[0].buffers[0]", "map entries must not be null: null_count is -1 and the validity bitmap has 1 nulls");
                    }
                } finally {
                    entryBuffers.setAtIndex(ADDRESS, 0, before);
                    entries.set(JAVA_LONG, ArrowArrayLayout.NULL_COUNT, 0);
                }
            }
        }
    }
}
