package dev.quiver.check;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A snapshot of this process's mappings from {@code /proc/self/maps} (Linux): which addresses may be read
 * and which hold code. The checker asks it before it dereferences any pointer a producer handed over, so
 * that a garbage pointer becomes a violation instead of a crash of the JVM. Immutable; thread-safe.
 */
final class HostMemoryMap {
    private static final Path MAPS = Path.of("/proc/self/maps");

    /** One mapping, {@code [start, end)}. */
    private record Region(long start, long end, boolean readable, boolean executable) {}

    private final List<Region> regions;

    private HostMemoryMap(List<Region> regions) {
        this.regions = regions;
    }

    /** @return the current mappings, or empty where the system does not publish them */
    static Optional<HostMemoryMap> snapshot() {
        if (!Files.isReadable(MAPS)) {
            return Optional.empty();
        }
        try {
            List<Region> regions = new ArrayList<>();
            for (String line : Files.readAllLines(MAPS)) {
                parse(line, regions);
            }
            regions.sort((a, b) -> Long.compareUnsigned(a.start, b.start));
            return Optional.of(new HostMemoryMap(List.copyOf(regions)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Parses {@code start-end perms offset dev inode [name]}. */
    private static void parse(String line, List<Region> regions) {
        String[] fields = line.trim().split("\\s+", 6);
        if (fields.length < 5) {
            return;
        }
        int dash = fields[0].indexOf('-');
        long start = Long.parseUnsignedLong(fields[0].substring(0, dash), 16);
        long end = Long.parseUnsignedLong(fields[0].substring(dash + 1), 16);
        String name = fields.length == 6 ? fields[5] : "";
        // The kernel's vvar pages may fault on reads of parts not in use, and vsyscall is execute-only.
        boolean special = name.startsWith("[vvar") || name.equals("[vsyscall]");
        regions.add(new Region(start, end, fields[1].charAt(0) == 'r' && !special, fields[1].charAt(2) == 'x'));
    }

    /**
     * @param address a host address
     * @param max     how many bytes the caller wants
     * @return how many bytes from {@code address}, up to {@code max}, lie in readable mappings without a gap
     */
    long readableBytes(long address, long max) {
        long at = address;
        long found = 0;
        int i = find(address);
        while (i >= 0 && i < regions.size() && found < max) {
            Region region = regions.get(i);
            if (!region.readable || Long.compareUnsigned(region.start, at) > 0 || Long.compareUnsigned(at, region.end) >= 0) {
                break;
            }
            found += region.end - at;
            at = region.end;
            i++;
        }
        return Math.min(found, max);
    }

    /**
     * @param address a host address
     * @return true if it lies in a mapping that may be executed
     */
    boolean executable(long address) {
        int i = find(address);
        return i >= 0 && regions.get(i).executable;
    }

    /** @return the index of the region containing {@code address}, or -1 */
    private int find(long address) {
        int low = 0;
        int high = regions.size() - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            Region region = regions.get(mid);
            if (Long.compareUnsigned(address, region.start) < 0) {
                high = mid - 1;
            } else if (Long.compareUnsigned(address, region.end) >= 0) {
                low = mid + 1;
            } else {
                return mid;
            }
        }
        return -1;
    }
}
