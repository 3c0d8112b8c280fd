package dev.quiver.cli;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.ProviderReport;
import picocli.CommandLine.Command;

import java.util.Map;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/** {@code quiver devices}: every backend found, its status with the reason, and its devices. */
@Command(name = "devices", mixinStandardHelpOptions = true, description = "List backends, why each is or is not usable, and their devices.")
final class DevicesCommand implements Callable<Integer> {

    @Override
    public Integer call() {
        Table table = new Table("BACKEND", "CODES", "STATUS", "DEVICE", "MEMORY", "DETAILS");
        for (ProviderReport report : Devices.system().report()) {
            String codes = report.deviceTypes().stream().map(t -> t.name() + "(" + t.code() + ")").collect(Collectors.joining(","));
            String reasons = String.join("; ", report.reasons());
            if (report.devices().isEmpty()) {
                table.row(report.name(), codes, report.status(), "-", "-", reasons.isEmpty() ? "no devices" : reasons);
                continue;
            }
            boolean first = true;
            for (Device device : report.devices()) {
                String details = details(device) + (first && !reasons.isEmpty() ? "; " + reasons : "");
                table.row(first ? report.name() : "", first ? codes : "", first ? report.status() : "",
                        device.type() + ":" + device.id() + " " + device.name(), memory(device.totalMemory()), details);
                first = false;
            }
        }
        table.print(System.out);
        return 0;
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

    static String memory(long bytes) {
        if (bytes < 0) {
            return "unknown";
        }
        double gib = bytes / (1024.0 * 1024 * 1024);
        return gib >= 1 ? String.format("%.1f GiB", gib) : String.format("%.1f MiB", bytes / (1024.0 * 1024));
    }
}
