package dev.quiver.cli;

import dev.quiver.Device;
import dev.quiver.DeviceType;

import java.util.Map;
import java.util.stream.Collectors;

/** How the commands describe one device in text. Stateless; thread-safe. */
final class DeviceText {
    private DeviceText() {}

    /** @return the device's type, id and name, for example {@code OPENCL:0 pthread-haswell} */
    static String label(Device device) {
        return device.type() + ":" + device.id() + " " + device.name();
    }

    /** @return memory kind, event type and the backend's limits of {@code device}, as one line */
    static String details(Device device) {
        Map<String, String> properties = device.properties();
        String host = device.isHostAccessible() ? "host-accessible" : "device memory";
        String events = device.type().eventType().map(e -> "events " + e).orElse("no events");
        if (device.type().equals(DeviceType.CPU)) {
            events = "no events";
        }
        String extra = properties.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue()).collect(Collectors.joining(", "));
        return host + ", " + events + (extra.isEmpty() ? "" : ", " + extra);
    }

    /**
     * @return how the device's memory reaches another process, for example {@code CUDA IPC (cuIpcGetMemHandle)},
     *         and whether its events travel too
     */
    static String interProcess(Device device) {
        dev.quiver.InterProcessMemory memory = device.interProcessMemory();
        return "inter-process: " + memory.description() + (memory.events() ? ", with its events" : "");
    }

    /** @return {@code bytes} in MiB or GiB with one decimal, or {@code unknown} if negative */
    static String memory(long bytes) {
        if (bytes < 0) {
            return "unknown";
        }
        double gib = bytes / (1024.0 * 1024 * 1024);
        return gib >= 1 ? String.format("%.1f GiB", gib) : String.format("%.1f MiB", bytes / (1024.0 * 1024));
    }
}
