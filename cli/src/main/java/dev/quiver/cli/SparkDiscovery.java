package dev.quiver.cli;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * What {@code quiver devices --spark-resource NAME [--type TYPE]} prints: the one line of JSON Apache Spark reads
 * from a resource's discovery script, {@code {"name":"gpu","addresses":["0","1"]}}. With a type, the addresses are
 * the ids of that type's devices ({@code "0"}); without one, every device but the CPU as {@code TYPE:ID}
 * ({@code "opencl:0"}, the names {@code --device} takes), so that one script can list several backends. Needs no
 * Spark class. Stateless; thread-safe.
 */
final class SparkDiscovery {
    private SparkDiscovery() {}

    /**
     * @param resource the Spark resource's name ({@code spark.executor.resource.NAME.discoveryScript})
     * @param type     the device type whose ids are listed, or null for every non-CPU device as {@code TYPE:ID}
     * @param devices  where to look
     * @return the JSON line, without a line break
     */
    static String json(String resource, DeviceType type, Devices devices) {
        List<String> addresses = devices.all().stream()
                .filter(device -> type == null ? !device.type().equals(DeviceType.CPU) : device.type().equals(type))
                .map(device -> type == null ? address(device) : Long.toString(device.id()))
                .toList();
        return "{\"name\":" + Json.quote(resource) + ",\"addresses\":"
                + addresses.stream().map(Json::quote).collect(Collectors.joining(",", "[", "]")) + "}";
    }

    /** @return {@code type:id} in the lower case {@code quiver devices} prints types in */
    private static String address(Device device) {
        return device.type().name().toLowerCase(Locale.ROOT) + ":" + device.id();
    }

    /**
     * Checks a resource name as Spark takes it in a configuration key.
     *
     * @param resource what the user gave
     * @return null if it is usable, else why not
     */
    static String problem(String resource) {
        if (resource.isBlank()) {
            return "a resource name is not empty (for example gpu)";
        }
        if (!resource.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_' || c == '-')) {
            return "a resource name is letters, digits, '_' and '-' (it is part of Spark's key spark.executor.resource.NAME.amount)";
        }
        return null;
    }
}
