package dev.quiver.types;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Property: {@link DeviceArray#slice} of any array of a random nested schema (every type, depth up to 4,
 * random nulls) at random offsets, and slices of those slices, read the same values as the host vector
 * sliced the same way: in place, exported to a C consumer that deep-copies them (and releases what it was
 * given exactly once), and copied. Slicing moves no bytes; struct children of a slice are the members of
 * its rows. The seed is in the test name.
 */
class RandomSlicesThroughCTest {
    private static final Devices NONE = Devices.cpuOnly();

    static LongStream seeds() {
        return LongStream.range(1_000, 1_200);
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void slicesReadTheirOwnElementsEverywhere(long seed) {
        RandomArrays random = new RandomArrays(seed);
        HostVector vector = random.vector(4, 40);
        long offset = random.random().nextInt((int) vector.length() + 1);
        long length = random.random().nextInt((int) (vector.length() - offset) + 1);
        long inner = random.random().nextInt((int) length + 1);
        long exports = Diagnostics.liveExports();
        try (DeviceArray whole = vector.toDeviceArray(NONE)) {
            long copied = Diagnostics.bytesCopied();
            try (DeviceArray slice = whole.slice(offset, length); DeviceArray sliceOfSlice = slice.slice(inner, length - inner)) {
                assertEquals(copied, Diagnostics.bytesCopied(), "slicing moves no bytes");
                List<Object> expected = vector.slice(offset, length).values();
                assertEquals(expected, ArrayReader.of(slice).values(), "read in place");
                assertEquals(expected.subList((int) inner, (int) length), ArrayReader.of(sliceOfSlice).values(), "slice of a slice");
                assertEquals(expected, DeepCopyLibrary.valuesThroughC(slice), "exported to C and back");
                try (DeviceArray copy = Copies.toHost(slice)) {
                    Interchange.validateFull(copy);
                    assertEquals(expected, ArrayReader.of(copy).values(), "copied");
                }
                if (vector.field().type() instanceof ArrowType.Struct && vector.field().dictionary() == null) {
                    for (int i = 0; i < slice.childCount(); i++) {
                        String name = vector.field().children().get(i).name();
                        try (DeviceArray child = slice.child(i)) {
                            List<Object> members = expected.stream().map(row -> row == null ? null : (Object) ((Map<?, ?>) row).get(name)).toList();
                            List<Object> read = ArrayReader.of(child).values();
                            for (int r = 0; r < members.size(); r++) {
                                if (expected.get(r) != null) {
                                    assertEquals(members.get(r), read.get(r), "child " + name + " row " + r);
                                }
                            }
                        }
                    }
                }
            }
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("seed " + seed + ", field " + vector.field() + ", slice " + offset + "+" + length + ": " + e.getMessage(), e);
        }
        assertEquals(exports, Diagnostics.liveExports(), "every slice, child and copy released");
    }
}
