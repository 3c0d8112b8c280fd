package dev.quiver.cli;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Copying a {@link DeviceArray#slice} of an int64 column with nulls on OpenCL and Vulkan, to the host and
 * within the device, moves exactly the slice's bytes ({@link Diagnostics#bytesCopied()}), never the whole
 * column: the validity bytes that hold its bits, and its values from the first slot of the byte that holds
 * its first bit (a copy keeps the offset modulo 8 so that bitmaps move as whole bytes, so up to 7 values
 * before the slice come along).
 */
class SliceCopyBytesTest {
    private static final Devices DEVICES = Devices.system();
    private static final int ROWS = 10_000;

    @ParameterizedTest
    @ValueSource(strings = {"OPENCL", "VULKAN"})
    void aSliceCopiesOnlyItsOwnBytes(String name) {
        DeviceType type = DeviceType.byName(name).orElseThrow();
        Device device = DEVICES.get(type, 0);
        Random random = new Random(type.code());
        List<Long> values = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            values.add(i % 7 == 3 ? null : random.nextLong());
        }
        HostVector column = HostVector.int64("x", values.toArray(Long[]::new));
        try (DeviceArray host = column.toDeviceArray(DEVICES); DeviceArray onDevice = Copies.toDevice(host, device)) {
            assertEquals(wholeBytes(), moved(() -> Copies.toHost(onDevice)), "the whole column, for comparison");
            for (int round = 0; round < 6; round++) {
                int offset = random.nextInt(ROWS - 1);
                int length = 1 + random.nextInt(Math.min(ROWS - offset, 500));
                long start = onDevice.offset() + offset;
                long base = start - start % 8;
                long end = start + length;
                long expected = 8 * (end - base) + (end + 7) / 8 - base / 8;
                try (DeviceArray slice = onDevice.slice(offset, length)) {
                    List<Long> wanted = values.subList(offset, offset + length);
                    assertEquals(expected, moved(() -> {
                        DeviceArray copy = Copies.toHost(slice);
                        assertEquals(wanted, ArrayReader.of(copy).values(), type + " slice " + offset + "+" + length);
                        return copy;
                    }), "to the host: " + length + " values from slot " + start);
                    assertEquals(expected, moved(() -> {
                        DeviceArray copy = Copies.toDevice(slice, device);
                        copy.syncEvent().ifPresent(event -> event.waitOnHost());
                        return copy;
                    }), "within the device");
                }
            }
        }
    }

    private static long wholeBytes() {
        return 8L * ROWS + (ROWS + 7) / 8;
    }

    /** @return the bytes {@code copy} moved; the copy it makes is closed */
    private static long moved(Supplier<DeviceArray> copy) {
        long before = Diagnostics.bytesCopied();
        copy.get().close();
        return Diagnostics.bytesCopied() - before;
    }
}
