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
 * accessibility, event type or null, properties). Stateless; thread-safe.
 */
final class DevicesJson {
    private DevicesJson() {}

    /**
     * @param version the Quiver version
     * @param reports what discovery found, one per provider
     * @return one line of JSON
     */
    static String of(String version, List<ProviderReport> reports) {
        return "{\"quiver\":" + string(version) + ",\"backends\":"
                + array(reports.stream().map(DevicesJson::backend).toList()) + "}";
    }

    private static String backend(ProviderReport report) {
        return "{\"name\":" + string(report.name())
                + ",\"class\":" + string(report.className())
                + ",\"priority\":" + report.priority()
                + ",\"deviceTypes\":" + array(report.deviceTypes().stream().map(DevicesJson::type).toList())
                + ",\"status\":" + string(report.status().name())
                + ",\"reasons\":" + array(report.reasons().stream().map(DevicesJson::string).toList())
                + ",\"setupHint\":" + string(report.setupHint())
                + ",\"devices\":" + array(report.devices().stream().map(DevicesJson::device).toList()) + "}";
    }

    private static String type(DeviceType type) {
        return "{\"name\":" + string(type.name()) + ",\"code\":" + type.code() + "}";
    }

    private static String device(Device device) {
        return "{\"type\":" + string(device.type().name())
                + ",\"code\":" + device.type().code()
                + ",\"id\":" + device.id()
                + ",\"name\":" + string(device.name())
                + ",\"provider\":" + string(device.provider())
                + ",\"totalMemory\":" + device.totalMemory()
                + ",\"hostAccessible\":" + device.isHostAccessible()
                + ",\"eventType\":" + device.type().eventType().map(DevicesJson::string).orElse("null")
                + ",\"properties\":" + object(device.properties()) + "}";
    }

    private static String object(Map<String, String> map) {
        return map.entrySet().stream().map(e -> string(e.getKey()) + ":" + string(e.getValue()))
                .collect(Collectors.joining(",", "{", "}"));
    }

    private static String array(List<String> values) {
        return String.join(",", values).transform(s -> "[" + s + "]");
    }

    /** @return {@code text} as a JSON string, with quotes, backslashes and control characters escaped */
    static String string(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
