package dev.quiver.internal.abi;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Optional;

/**
 * A snapshot of this process's mappings from {@code /proc/self/maps} (Linux): which addresses may be read
 * and which hold code. Whoever follows a pointer that a producer handed over asks it first, so that a
 * garbage pointer becomes a reported fault instead of a crash of the JVM. Immutable; thread-safe.
 *
 * <p>A snapshot can go stale: memory mapped after it was taken is missing (callers take a new one on a
 * miss, see {@link ReadableMemory}), and memory unmapped after it was taken still looks readable.
 */
public final class HostMappings {
    private static final Path MAPS = Path.of("/proc/self/maps");

    /** Sorted, non-overlapping {@code [start, end)} pairs of readable mappings, adjacent ones merged. */
    private final long[] readable;
    /** Sorted {@code [start, end)} pairs of executable mappings. */
    private final long[] executable;

    private HostMappings(long[] readable, long[] executable) {
        this.readable = readable;
        this.executable = executable;
    }

    /** @return the current mappings, or empty where the system does not publish them */
    public static Optional<HostMappings> snapshot() {
        if (!Files.isReadable(MAPS)) {
            return Optional.empty();
        }
        try {
            return Optional.of(parse(Files.readAllBytes(MAPS)));
        } catch (IOException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Parses lines of {@code start-end perms offset dev inode [name]}, in the kernel's ascending order. */
    static HostMappings parse(byte[] maps) {
        Ranges readable = new Ranges();
        Ranges executable = new Ranges();
        int at = 0;
        while (at < maps.length) {
            int lineEnd = at;
            while (lineEnd < maps.length && maps[lineEnd] != '\n') {
                lineEnd++;
            }
            line(maps, at, lineEnd, readable, executable);
            at = lineEnd + 1;
        }
        return new HostMappings(readable.toArray(), executable.toArray());
    }

    private static void line(byte[] maps, int from, int to, Ranges readable, Ranges executable) {
        int at = from;
        long start = 0;
        for (; at < to && maps[at] != '-'; at++) {
            start = (start << 4) | hex(maps[at]);
        }
        long end = 0;
        for (at++; at < to && maps[at] != ' '; at++) {
            end = (end << 4) | hex(maps[at]);
        }
        at++;
        if (at + 3 > to) {
            return;
        }
        boolean read = maps[at] == 'r';
        boolean exec = maps[at + 2] == 'x';
        // The kernel's vvar pages may fault on reads of parts not in use, and vsyscall is execute-only.
        if (read && special(maps, from, to)) {
            read = false;
        }
        if (read) {
            readable.add(start, end);
        }
        if (exec) {
            executable.add(start, end);
        }
    }

    private static boolean special(byte[] maps, int from, int to) {
        int bracket = from;
        while (bracket < to && maps[bracket] != '[') {
            bracket++;
        }
        if (bracket == to) {
            return false;
        }
        String line = new String(maps, from, to - from, java.nio.charset.StandardCharsets.US_ASCII);
        return line.contains("[vvar") || line.endsWith("[vsyscall]");
    }

    private static int hex(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        throw new IllegalArgumentException("not a hex digit: " + (char) c);
    }

    /**
     * @param address a host address
     * @param max     how many bytes the caller wants
     * @return how many bytes from {@code address}, up to {@code max}, lie in readable mappings without a gap
     */
    public long readableBytes(long address, long max) {
        int i = find(readable, address);
        if (i < 0 || max <= 0) {
            return 0;
        }
        // adjacent mappings are merged, so one range holds every byte readable without a gap
        long available = readable[i + 1] - address;
        return Long.compareUnsigned(available, max) >= 0 ? max : available;
    }

    /**
     * @param address a host address
     * @return true if it lies in a mapping that may be executed
     */
    public boolean executable(long address) {
        return find(executable, address) >= 0;
    }

    /** @return the even index of the pair containing {@code address}, or -1 */
    private static int find(long[] ranges, long address) {
        int low = 0;
        int high = ranges.length / 2 - 1;
        while (low <= high) {
            int mid = (low + high) >>> 1;
            if (Long.compareUnsigned(address, ranges[2 * mid]) < 0) {
                high = mid - 1;
            } else if (Long.compareUnsigned(address, ranges[2 * mid + 1]) >= 0) {
                low = mid + 1;
            } else {
                return 2 * mid;
            }
        }
        return -1;
    }

    /** Builds sorted pairs, merging a range into the previous one where they touch. */
    private static final class Ranges {
        private long[] pairs = new long[256];
        private int size;

        void add(long start, long end) {
            if (size > 0 && pairs[size - 1] == start) {
                pairs[size - 1] = end;
                return;
            }
            if (size + 2 > pairs.length) {
                pairs = Arrays.copyOf(pairs, pairs.length * 2);
            }
            pairs[size++] = start;
            pairs[size++] = end;
        }

        long[] toArray() {
            return Arrays.copyOf(pairs, size);
        }
    }
}
