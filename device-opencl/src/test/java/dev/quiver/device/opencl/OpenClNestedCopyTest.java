package dev.quiver.device.opencl;

import dev.quiver.plugin.Backends;
import dev.quiver.Copies;
import dev.quiver.BackendSelection;
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

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Random nested record batches (lists, structs and utf8 down to depth 3, nulls everywhere) copied
 * cpu -> opencl -> cpu through {@link Copies#toDevice} and {@link Copies#toHost}, whole and
 * sliced, equal the original.
 */
class OpenClNestedCopyTest {

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89})
    void aRandomNestedBatchSurvivesTheRoundTrip(long seed) {
        Random random = new Random(seed);
        int rows = 1 + random.nextInt(400);
        HostVector batch = RandomBatch.of(random, rows);
        Devices devices = Backends.devices(List.of(new OpenClProvider()), BackendSelection.all());
        Device opencl = devices.get(DeviceType.OPENCL, 0);
        long exportsBefore = Diagnostics.liveExports();
        roundTrip(batch, devices, opencl);
        int offset = random.nextInt(rows);
        roundTrip(batch.slice(offset, random.nextInt(rows - offset + 1)), devices, opencl);
        assertEquals(exportsBefore, Diagnostics.liveExports(), "every struct made on the way was released");
    }

    private static void roundTrip(HostVector batch, Devices devices, Device opencl) {
        try (DeviceArray host = batch.toDeviceArray(devices); DeviceArray onDevice = Copies.toDevice(host, opencl)) {
            assertEquals(DeviceType.OPENCL, onDevice.deviceType());
            assertTrue(onDevice.syncEvent().isPresent(), "an OpenCL copy carries its cl_event*");
            try (DeviceArray back = Copies.toHost(onDevice)) {
                assertEquals(batch.field(), back.field());
                assertEquals(batch.values(), ArrayReader.of(back).values(), batch.field().toString());
            }
        }
    }

    /** Random columns built with {@link HostVector}'s builders. */
    private static final class RandomBatch {
        private RandomBatch() {}

        /** A struct batch with at least one utf8, one list and one struct column, plus random ones. */
        static HostVector of(Random random, int rows) {
            List<HostVector> columns = new ArrayList<>();
            columns.add(utf8("text", random, rows));
            columns.add(list("list", random, rows, 1 + random.nextInt(3)));
            columns.add(struct("record", random, rows, 1 + random.nextInt(3)));
            int extra = random.nextInt(4);
            for (int i = 0; i < extra; i++) {
                columns.add(column("c" + i, random, rows, random.nextInt(4)));
            }
            return HostVector.struct("batch", columns.toArray(HostVector[]::new));
        }

        private static HostVector column(String name, Random random, int rows, int depth) {
            if (depth == 0) {
                return leaf(name, random, rows);
            }
            return switch (random.nextInt(3)) {
                case 0 -> list(name, random, rows, depth);
                case 1 -> struct(name, random, rows, depth);
                default -> leaf(name, random, rows);
            };
        }

        private static HostVector leaf(String name, Random random, int rows) {
            return switch (random.nextInt(5)) {
                case 0 -> utf8(name, random, rows);
                case 1 -> {
                    Integer[] values = new Integer[rows];
                    for (int i = 0; i < rows; i++) {
                        values[i] = random.nextInt(6) == 0 ? null : random.nextInt();
                    }
                    yield HostVector.int32(name, values);
                }
                case 2 -> {
                    Long[] values = new Long[rows];
                    for (int i = 0; i < rows; i++) {
                        values[i] = random.nextInt(6) == 0 ? null : random.nextLong();
                    }
                    yield HostVector.int64(name, values);
                }
                case 3 -> {
                    Double[] values = new Double[rows];
                    for (int i = 0; i < rows; i++) {
                        values[i] = random.nextInt(6) == 0 ? null : random.nextGaussian() * 1e6;
                    }
                    yield HostVector.float64(name, values);
                }
                default -> {
                    Boolean[] values = new Boolean[rows];
                    for (int i = 0; i < rows; i++) {
                        values[i] = random.nextInt(6) == 0 ? null : random.nextBoolean();
                    }
                    yield HostVector.bool(name, values);
                }
            };
        }

        private static HostVector utf8(String name, Random random, int rows) {
            String[] values = new String[rows];
            for (int i = 0; i < rows; i++) {
                if (random.nextInt(5) == 0) {
                    continue;
                }
                StringBuilder text = new StringBuilder();
                int length = random.nextInt(12);
                for (int c = 0; c < length; c++) {
                    text.appendCodePoint(switch (random.nextInt(4)) {
                        case 0 -> 'a' + random.nextInt(26);
                        case 1 -> 0xE9;
                        case 2 -> 0x4E2D;
                        default -> 0x1F600 + random.nextInt(40);
                    });
                }
                values[i] = text.toString();
            }
            return HostVector.utf8(name, values);
        }

        private static HostVector list(String name, Random random, int rows, int depth) {
            Integer[] lengths = new Integer[rows];
            int elements = 0;
            for (int i = 0; i < rows; i++) {
                lengths[i] = random.nextInt(7) == 0 ? null : random.nextInt(4);
                elements += lengths[i] == null ? 0 : lengths[i];
            }
            return HostVector.list(name, column(name + "_item", random, elements, depth - 1), lengths);
        }

        private static HostVector struct(String name, Random random, int rows, int depth) {
            boolean[] valid = new boolean[rows];
            for (int i = 0; i < rows; i++) {
                valid[i] = random.nextInt(8) != 0;
            }
            int count = 1 + random.nextInt(3);
            HostVector[] members = new HostVector[count];
            for (int m = 0; m < count; m++) {
                members[m] = column(name + "_" + m, random, rows, depth - 1);
            }
            return HostVector.struct(name, valid, members);
        }
    }
}
