package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.NoSuchElementException;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link DeviceArray#dictionary()} and {@link dev.quiver.type.Field#childIndex(String)}: views over the parent's memory
 * (the same buffer pointers, nothing copied) that keep it alive after the parent closes, and fail clearly
 * once nothing holds the memory.
 */
class ArrayViewsTest {
    private static final Devices DEVICES = Backends.devices(List.of(HostProvider.host()), BackendSelection.all());
    private static final Field COLOURS = Field.of("colour", new ArrowType.Int(16, true), true)
            .withDictionary(new Field.DictionaryEncoding(Field.of("values", new ArrowType.Utf8(), true), false));

    @Test
    void theDictionaryOfAnEncodedArraySharesItsMemoryAndOutlivesIt() {
        List<Object> colours = Arrays.asList("red", "green", null, "red", "blue", "green");
        long exports = Diagnostics.liveExports();
        long copied = Diagnostics.bytesCopied();
        DeviceArray encoded = HostVector.of(COLOURS, colours).toDeviceArray(DEVICES);
        DeviceArray dictionary = encoded.dictionary().orElseThrow();
        assertEquals(copied, Diagnostics.bytesCopied(), "a view copies nothing");
        assertEquals(new ArrowType.Utf8(), dictionary.field().type());
        MemorySegment parentDictionary = Interchange.arrowArray(encoded).get(ADDRESS, ArrowArrayLayout.DICTIONARY)
                .reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
        MemorySegment parentBuffers = parentDictionary.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(3 * ADDRESS.byteSize());
        assertEquals(parentDictionary.get(JAVA_LONG, ArrowArrayLayout.LENGTH), dictionary.length());
        for (int i = 0; i < dictionary.bufferCount(); i++) {
            assertEquals(parentBuffers.getAtIndex(ADDRESS, i), dictionary.buffer(i).pointer(), "dictionary buffer " + i + " is the parent's");
        }
        List<Object> words = ArrayReader.of(dictionary).values();
        assertEquals(new LinkedHashSet<>(List.of("red", "green", "blue")), new LinkedHashSet<>(words), "each value once");
        assertEquals(3, words.size());
        encoded.close();
        assertTrue(Diagnostics.liveExports() > exports, "the dictionary holds the parent's structs");
        assertEquals(words, ArrayReader.of(dictionary).values(), "readable after the parent closed");
        dictionary.close();
        assertEquals(exports, Diagnostics.liveExports(), "released once the view closed");
        assertThrows(IllegalStateException.class, () -> dictionary.buffer(0));
    }

    @Test
    void anArrayWithoutDictionaryHasNoneAndAClosedOneSaysItIsClosed() {
        DeviceArray plain = HostVector.int64("x", 1L, 2L).toDeviceArray(DEVICES);
        assertTrue(plain.dictionary().isEmpty());
        DeviceArray encoded = HostVector.of(COLOURS, List.of("a")).toDeviceArray(DEVICES);
        plain.close();
        encoded.close();
        var closed = assertThrows(IllegalStateException.class, encoded::dictionary);
        assertTrue(closed.getMessage().contains("\"colour\" is closed"), closed.getMessage());
    }

    @Test
    void aChildFoundByNameIsTheMemberColumnAndKeepsTheParentAlive() {
        HostVector batch = HostVector.struct("t", HostVector.int32("a", 1, null, 3), HostVector.utf8("b", "x", "yy", null));
        long exports = Diagnostics.liveExports();
        DeviceArray parent = batch.toDeviceArray(DEVICES);
        DeviceArray sliced = parent.slice(1, 2);
        DeviceArray byName = sliced.child(sliced.field().childIndex("b"));
        try (DeviceArray byIndex = sliced.child(1)) {
            assertEquals("b", byName.field().name());
            for (int i = 0; i < byName.bufferCount(); i++) {
                assertEquals(byIndex.buffer(i).pointer(), byName.buffer(i).pointer(), "buffer " + i);
            }
        }
        parent.close();
        sliced.close();
        assertEquals(Arrays.asList("yy", null), ArrayReader.of(byName).values(), "rows 1 and 2 of the member, parents closed");
        assertFalse(byName.isClosed());
        byName.close();
        assertEquals(exports, Diagnostics.liveExports());
        var missing = assertThrows(NoSuchElementException.class, () -> {
            try (DeviceArray other = batch.toDeviceArray(DEVICES)) {
                other.child(other.field().childIndex("c"));
            }
        });
        assertTrue(missing.getMessage().contains("[a, b]"), missing.getMessage());
        var closed = assertThrows(IllegalStateException.class, () -> sliced.child(sliced.field().childIndex("b")));
        assertTrue(closed.getMessage().contains("closed"), closed.getMessage());
    }
}
