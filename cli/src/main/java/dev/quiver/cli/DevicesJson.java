package dev.quiver.cli;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.ProviderReport;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The JSON of {@code quiver devices --json}, for scripts: an object with the Quiver version and a
 * {@code backends} array, one object per provider with its name, class, priority, device types, status,
 * reasons, setup hint and devices (type, code, id, name, provider, total memory in bytes, host
 * accessibility, event type or null, the inter-process mechanism of its memory ({@code mechanism} as the backend
 * names it, {@code NONE} where memory is copied through shared host memory, a {@code description} and the
 * driver handle's {@code handleBytes}), properties, and the state of its memory pool: bytes in use, cached and
 * pending, high-water mark, limits, requests, cache hits and allocator). Stateless; thread-safe.
 */
final class DevicesJson {
    private DevicesJson() {}

    /**
     * @param version the Quiver version
     * @param reports what discovery found, one per provider
     * @return one line of JSON
     */
    static String of(String version, List<ProviderReport> reports) {
        return "{\"quiver\":" + Json.quote(version) + ",\"backends\":"
                + array(reports.stream().map(DevicesJson::backend).toList()) + "}";
    }

    private static String backend(ProviderReport report) {
        return "{\"name\":" + Json.quote(report.name())
                + ",\"class\":" + Json.quote(report.className())
                + ",\"priority\":" + report.priority()
                + ",\"deviceTypes\":" + array(report.deviceTypes().stream().map(DevicesJson::type).toList())
                + ",\"status\":" + Json.quote(report.status().name())
                + ",\"reasons\":" + Json.strings(report.reasons())
                + ",\"setupHint\":" + Json.quote(report.setupHint())
                + ",\"devices\":" + array(report.devices().stream().map(DevicesJson::device).toList()) + "}";
    }

    private static String type(DeviceType type) {
        return "{\"name\":" + Json.quote(type.name()) + ",\"code\":" + type.code() + "}";
    }

    private static String device(Device device) {
        return "{\"type\":" + Json.quote(device.type().name())
                + ",\"code\":" + device.type().code()
                + ",\"id\":" + device.id()
                + ",\"name\":" + Json.quote(device.name())
                + ",\"provider\":" + Json.quote(device.provider())
                + ",\"totalMemory\":" + device.totalMemory()
                + ",\"hostAccessible\":" + device.isHostAccessible()
                + ",\"eventType\":" + device.type().eventType().map(Json::quote).orElse("null")
                + ",\"interProcess\":" + interProcess(device.interProcessMemory())
                + ",\"properties\":" + object(device.properties())
                + ",\"pool\":" + pool(device.memoryPool().stats()) + "}";
    }

    private static String interProcess(dev.quiver.InterProcessMemory mechanism) {
        return "{\"mechanism\":" + Json.quote(mechanism.mechanism()) + ",\"description\":" + Json.quote(mechanism.description())
                + ",\"handleBytes\":" + mechanism.handleBytes() + ",\"events\":" + mechanism.events() + "}";
    }

    private static String pool(dev.quiver.memory.PoolStats stats) {
        return "{\"bytesInUse\":" + stats.bytesInUse() + ",\"bytesCached\":" + stats.bytesCached()
                + ",\"bytesPending\":" + stats.bytesPending() + ",\"highWater\":" + stats.highWater()
                + ",\"limit\":" + stats.limit() + ",\"cacheLimit\":" + stats.cacheLimit()
                + ",\"requests\":" + stats.requests() + ",\"hits\":" + stats.hits()
                + ",\"allocator\":" + Json.quote(stats.allocator()) + "}";
    }

    private static String object(Map<String, String> map) {
        return map.entrySet().stream().map(e -> Json.quote(e.getKey()) + ":" + Json.quote(e.getValue()))
                .collect(Collectors.joining(",", "{", "}"));
    }

    private static String array(List<String> values) {
        return "[" + String.join(",", values) + "]";
    }
}
