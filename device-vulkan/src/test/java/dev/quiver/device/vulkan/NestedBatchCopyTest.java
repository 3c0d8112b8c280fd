package dev.quiver.device.vulkan;

import dev.quiver.plugin.Backends;
import dev.quiver.Copies;
import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Random nested record batches (structs and lists nested up to four deep, utf8, integers, floats, booleans,
 * nulls everywhere) copied cpu -> vulkan -> cpu with {@link Copies#toDevice} and
 * {@link Copies#toHost} come back equal to the original, whole and sliced.
 */
class NestedBatchCopyTest {
    private static final Devices DEVICES = Backends.devices(List.of(new VulkanProvider()), BackendSelection.all());

    @ParameterizedTest(name = "seed {0}")
    @ValueSource(longs = {1, 2, 3, 5, 8, 13, 21, 34, 55, 89})
    void randomNestedBatchSurvivesTheRoundTrip(long seed) {
        Random random = new Random(seed);
        List<Field> columns = new ArrayList<>();
        int columnCount = 2 + random.nextInt(5);
        for (int c = 0; c < columnCount; c++) {
            columns.add(randomField("c" + c, random, 0));
        }
        columns.add(Field.list("entries", true, Field.struct("entry", true, List.of(
                Field.of("key", ArrowType.utf8(), true),
                Field.list("values", true, Field.of("value", ArrowType.integer(64, true), true))))));
        Field schema = Field.struct("batch", false, columns);
        int rows = 1 + random.nextInt(400);
        List<Object> values = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            values.add(randomValue(schema, random, false));
        }
        HostVector batch = HostVector.of(schema, values);
        Device vulkan = DEVICES.all().stream().filter(d -> d.type().equals(DeviceType.VULKAN)).findFirst().orElseThrow();
        roundTrip(batch, vulkan);
        int offset = random.nextInt(rows);
        roundTrip(batch.slice(offset, random.nextInt(rows - offset + 1)), vulkan);
    }

    private static void roundTrip(HostVector batch, Device vulkan) {
        try (DeviceArray onCpu = batch.toDeviceArray(DEVICES);
             DeviceArray onVulkan = Copies.toDevice(onCpu, vulkan);
             DeviceArray back = Copies.toHost(onVulkan)) {
            assertEquals(DeviceType.VULKAN, onVulkan.deviceType());
            assertEquals(DeviceType.CPU, back.deviceType());
            assertEquals(batch.field(), back.field());
            assertEquals(batch.values(), ArrayReader.of(back).values(), "values after cpu -> vulkan -> cpu");
        }
    }

    private static Field randomField(String name, Random random, int depth) {
        int kind = random.nextInt(depth >= 3 ? 4 : 6);
        return switch (kind) {
            case 0 -> Field.of(name, ArrowType.utf8(), true);
            case 1 -> Field.of(name, ArrowType.integer(64, true), true);
            case 2 -> Field.of(name, ArrowType.floatingPoint(64), true);
            case 3 -> Field.of(name, ArrowType.bool(), true);
            case 4 -> Field.list(name, true, randomField("item", random, depth + 1));
            default -> {
                List<Field> members = new ArrayList<>();
                int count = 1 + random.nextInt(3);
                for (int i = 0; i < count; i++) {
                    members.add(randomField(name + "_" + i, random, depth + 1));
                }
                yield Field.struct(name, true, members);
            }
        };
    }

    private static Object randomValue(Field field, Random random, boolean mayBeNull) {
        if (mayBeNull && random.nextInt(6) == 0) {
            return null;
        }
        ArrowType type = field.type();
        if (type.equals(ArrowType.utf8())) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(12);
            for (int i = 0; i < length; i++) {
                text.append(random.nextInt(10) == 0 ? 'é' : (char) ('a' + random.nextInt(26)));
            }
            return text.toString();
        }
        if (type.equals(ArrowType.integer(64, true))) {
            return random.nextLong();
        }
        if (type.equals(ArrowType.floatingPoint(64))) {
            return random.nextDouble();
        }
        if (type.equals(ArrowType.bool())) {
            return random.nextBoolean();
        }
        if (type.equals(ArrowType.list())) {
            List<Object> items = new ArrayList<>();
            int length = random.nextInt(5);
            for (int i = 0; i < length; i++) {
                items.add(randomValue(field.children().getFirst(), random, true));
            }
            return items;
        }
        if (type.equals(ArrowType.struct())) {
            Map<String, Object> members = new LinkedHashMap<>();
            for (Field member : field.children()) {
                members.put(member.name(), randomValue(member, random, true));
            }
            return members;
        }
        throw new IllegalArgumentException("no random values for " + type);
    }
}
