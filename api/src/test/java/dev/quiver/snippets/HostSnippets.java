package dev.quiver.snippets;

import dev.quiver.DeviceArray;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.BinaryVectors;
import dev.quiver.host.FixedWidthVectors;
import dev.quiver.host.HostVector;
import dev.quiver.host.Validity;

import java.nio.charset.StandardCharsets;

/** The examples in the documentation of package {@code dev.quiver.host}, compiled with the tests. */
final class HostSnippets {
    private HostSnippets() {}

    static void vectors() {
        // @start region="utf8"
        byte[] data = "helloworld".getBytes(StandardCharsets.UTF_8);
        HostVector words = BinaryVectors.utf8("w", data, new int[] {0, 5, 5, 10}, Validity.of(new boolean[] {true, false, true}));
        // "hello", null, "world"
        // @end
        // @start region="validity"
        long[] ids = {1, 2, 3, 4};
        HostVector v = FixedWidthVectors.int64("id", ids, Validity.of(new boolean[] {true, false, true, true}));
        // @end
        System.out.println(words + " " + v);
    }

    static long fixedWidth() {
        // @start region="int64"
        long[] ids = new long[1_000_000];
        boolean[] valid = new boolean[ids.length];
        // ... fill them ...
        try (DeviceArray array = FixedWidthVectors.int64("id", ids, Validity.of(valid)).toDeviceArray()) {
            ArrayReader reader = ArrayReader.of(array);
            long first = reader.isNull(0) ? -1 : reader.getLong(0);
            // @end
            return first;
        }
    }

    static void struct() {
        // @start region="struct"
        HostVector batch = HostVector.struct("batch",
                HostVector.int32("id", 1, 2, null),
                HostVector.utf8("name", "a", null, "c"));
        try (DeviceArray array = batch.toDeviceArray()) {
            System.out.println(ArrayReader.of(array).values());
        }
        // @end
    }
}
