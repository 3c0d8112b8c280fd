package dev.quiver.spi.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * What the host device tells users about the machine: the processor's name and the total memory, read once
 * from {@code /proc} on first use. Elsewhere than Linux the name falls back to the architecture and the
 * memory is unknown (-1). Thread-safe: a race reads the files twice and keeps equal answers.
 */
final class HostFacts {
    private volatile String cpuName;
    private volatile long totalMemory = -2;

    String cpuName() {
        String name = cpuName;
        if (name == null) {
            name = field(lines("/proc/cpuinfo"), "model name");
            if (name == null) {
                name = "host " + System.getProperty("os.arch");
            }
            cpuName = name;
        }
        return name;
    }

    long totalMemory() {
        long total = totalMemory;
        if (total == -2) {
            total = kibibytes(field(lines("/proc/meminfo"), "MemTotal"));
            totalMemory = total;
        }
        return total;
    }

    /** @return the text after the colon of the first line starting with {@code key}, stripped, or null */
    private static String field(List<String> lines, String key) {
        for (String line : lines) {
            int colon = line.indexOf(':');
            if (line.startsWith(key) && colon > 0) {
                return line.substring(colon + 1).strip();
            }
        }
        return null;
    }

    /** @return bytes for a {@code "<n> kB"} value, or -1 if it is missing or malformed */
    private static long kibibytes(String value) {
        if (value == null || !value.endsWith(" kB")) {
            return -1;
        }
        try {
            return Math.multiplyExact(Long.parseLong(value.substring(0, value.length() - 3).strip()), 1024L);
        } catch (NumberFormatException | ArithmeticException e) {
            return -1;
        }
    }

    private static List<String> lines(String file) {
        try {
            return Files.readAllLines(Path.of(file));
        } catch (IOException | SecurityException e) {
            return List.of();
        }
    }
}
