package dev.quiver.cli;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Run in a child JVM by {@code LookupLoadsOnlyItsBackendTest}: looks up one device ({@code CPU -1} also
 * builds a CPU array and reads it back), then prints the native libraries the process has mapped, one a line.
 */
public final class LookupMain {
    private LookupMain() {}

    /**
     * @param args a device type name and a device id
     * @throws IOException if the process's mappings cannot be read
     */
    public static void main(String[] args) throws IOException {
        DeviceType type = DeviceType.byName(args[0]).orElseThrow();
        Devices.system().get(type, Long.parseLong(args[1]));
        if (type.equals(DeviceType.CPU)) {
            try (DeviceArray column = HostVector.int64("x", 1L, null, 3L).toDeviceArray()) {
                System.out.println("values " + ArrayReader.of(column).values());
            }
        }
        Files.readAllLines(Path.of("/proc/self/maps")).stream().map(line -> line.substring(line.lastIndexOf(' ') + 1))
                .filter(file -> file.contains(".so")).distinct().forEach(file -> System.out.println("mapped " + file));
    }
}
