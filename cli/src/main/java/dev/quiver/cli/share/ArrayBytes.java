package dev.quiver.cli.share;

import dev.quiver.DeviceArray;

import java.util.Optional;
import java.util.function.ToLongFunction;

/** Sizes of an array's buffers, its children's and its dictionary's included. Stateless. */
final class ArrayBytes {
    private ArrayBytes() {}

    /**
     * @param array an open array; the caller keeps it
     * @return the sum of the sizes its buffers report (a buffer of unknown size counts nothing)
     */
    static long of(DeviceArray array) {
        return sum(array, node -> {
            long bytes = 0;
            for (int i = 0; i < node.bufferCount(); i++) {
                bytes += Math.max(0, node.buffer(i).byteSize());
            }
            return bytes;
        });
    }

    /**
     * @param array an open array; the caller keeps it
     * @return how many buffers it has
     */
    static long buffers(DeviceArray array) {
        return sum(array, DeviceArray::bufferCount);
    }

    private static long sum(DeviceArray array, ToLongFunction<DeviceArray> perNode) {
        long total = perNode.applyAsLong(array);
        for (int k = 0; k < array.childCount(); k++) {
            try (DeviceArray child = array.child(k)) {
                total += sum(child, perNode);
            }
        }
        Optional<DeviceArray> dictionary = array.dictionary();
        if (dictionary.isPresent()) {
            try (DeviceArray values = dictionary.get()) {
                total += sum(values, perNode);
            }
        }
        return total;
    }
}
