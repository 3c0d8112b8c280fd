package dev.quiver.flight;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * The options of {@link FlightThroughput} (and of its {@link BenchServer}, which is given the same ones, so that
 * both sides derive the same {@linkplain #cases() cases}):
 * <pre>
 * --total SIZE      bytes a case moves per path and run (default 64m); a batch larger than that is sent once
 * --sizes LIST      batch sizes (default 64k,1m,8m,64m)
 * --streams LIST    streams (endpoints, socket pairs, client threads) a case is split over (default 1,4)
 * --types LIST      column types, int64 and, or, utf8 (default both)
 * --targets LIST    where Quiver's client lands the batches: cpu, opencl, vulkan (default cpu,opencl,vulkan;
 *                   a target this machine lacks is reported, not measured)
 * --warmup N        warm-up runs of each case (default 1)
 * --runs N          measured runs of each case (default 3)
 * --csv PATH        also write every measurement as CSV rows to PATH
 * </pre>
 * The defaults take about three minutes on a 2-core machine; the recorded run in docs/PERFORMANCE.md adds
 * {@code --total 256m --sizes 64k,1m,8m,64m,256m,1g}.
 * A size is a number with a suffix {@code b} (bytes), {@code k}, {@code m} or {@code g} (binary: KiB, MiB, GiB), or a
 * bare number of MiB; fractions are allowed ({@code 0.0625} is 64 KiB), and sizes are rounded down to a multiple of
 * 16 bytes (whole rows of either type). Immutable.
 *
 * @param total   bytes per case and run
 * @param sizes   batch sizes in bytes
 * @param streams stream counts
 * @param types   column types
 * @param targets Quiver's destinations, lower case
 * @param warmUp  warm-up runs
 * @param runs    measured runs
 * @param csv     where the CSV goes, or null
 */
record BenchOptions(long total, List<Long> sizes, List<Integer> streams, List<String> types, List<String> targets, int warmUp, int runs,
                    Path csv) {
    private static final long KIB = 1 << 10;
    private static final long MIB = 1 << 20;
    private static final long GIB = 1 << 30;

    BenchOptions {
        if (total <= 0 || sizes.isEmpty() || streams.isEmpty() || types.isEmpty() || targets.isEmpty() || warmUp < 0 || runs < 1) {
            throw new IllegalArgumentException("nothing to measure: total " + total + ", sizes " + sizes + ", streams " + streams + ", types "
                    + types + ", targets " + targets + ", runs " + runs);
        }
        for (String type : types) {
            if (!BenchBatches.TYPES.contains(type)) {
                throw new IllegalArgumentException("no column type " + type + "; there are " + BenchBatches.TYPES);
            }
        }
        sizes = List.copyOf(sizes);
        streams = List.copyOf(streams);
        types = List.copyOf(types);
        targets = List.copyOf(targets);
    }

    /**
     * @param args the command line
     * @return the options, defaults where not given
     * @throws IllegalArgumentException on an unknown option or a bad value
     */
    static BenchOptions parse(String... args) {
        long total = 64 * MIB;
        List<Long> sizes = List.of(64 * KIB, MIB, 8 * MIB, 64 * MIB);
        List<Integer> streams = List.of(1, 4);
        List<String> types = BenchBatches.TYPES;
        List<String> targets = List.of("cpu", "opencl", "vulkan");
        int warmUp = 1;
        int runs = 3;
        Path csv = null;
        for (int i = 0; i < args.length; i++) {
            String option = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(option + " needs a value");
            }
            String value = args[++i];
            switch (option) {
                case "--total" -> total = bytes(value);
                case "--sizes" -> sizes = list(value).stream().map(BenchOptions::bytes).toList();
                case "--streams" -> streams = list(value).stream().map(Integer::parseInt).toList();
                case "--types" -> types = list(value);
                case "--targets" -> targets = list(value).stream().map(t -> t.toLowerCase(Locale.ROOT)).toList();
                case "--warmup" -> warmUp = Integer.parseInt(value);
                case "--runs" -> runs = Integer.parseInt(value);
                case "--csv" -> csv = Path.of(value);
                default -> throw new IllegalArgumentException("unknown option " + option
                        + "; there are --total --sizes --streams --types --targets --warmup --runs --csv");
            }
        }
        return new BenchOptions(total, sizes, streams, types, targets, warmUp, runs, csv);
    }

    /** {@return the arguments that give these options (the CSV path left out), for the server} */
    String[] serverArgs() {
        return new String[] {"--total", total + "b", "--sizes", String.join(",", sizes.stream().map(s -> s + "b").toList()), "--streams",
                String.join(",", streams.stream().map(String::valueOf).toList()), "--types", String.join(",", types)};
    }

    /**
     * The cases, in the order measured: per type, per size, per stream count. A case of {@code streams} streams has
     * {@code max(1, total / size)} batches rounded down to a multiple of {@code streams}; a size with fewer batches
     * than streams has no case for that stream count.
     *
     * @return the cases
     */
    List<BenchCase> cases() {
        List<BenchCase> cases = new ArrayList<>();
        for (String type : types) {
            for (long size : sizes) {
                for (int n : streams) {
                    long batches = Math.max(1, total / size) / n * n;
                    if (batches > 0) {
                        cases.add(new BenchCase(type, size, n, Math.toIntExact(batches)));
                    }
                }
            }
        }
        return cases;
    }

    /** {@return the stream counts for which {@code size} has no case (fewer batches than streams)} */
    List<Integer> skippedStreams(long size) {
        return streams.stream().filter(n -> Math.max(1, total / size) < n).toList();
    }

    /**
     * @param text a size: a number with a suffix b, k, m or g, or a bare number of MiB (fractions allowed)
     * @return the bytes, a multiple of 16 (whole rows of either type)
     */
    static long bytes(String text) {
        String t = text.strip().toLowerCase(Locale.ROOT);
        char last = t.isEmpty() ? ' ' : t.charAt(t.length() - 1);
        long unit = switch (last) {
            case 'b' -> 1;
            case 'k' -> KIB;
            case 'm' -> MIB;
            case 'g' -> GIB;
            default -> MIB;
        };
        String number = Character.isLetter(last) ? t.substring(0, t.length() - 1) : t;
        long bytes = (long) (Double.parseDouble(number) * unit) / 16 * 16;
        if (bytes <= 0) {
            throw new IllegalArgumentException("a size must be at least 16 bytes, not " + text);
        }
        return bytes;
    }

    /** {@return {@code bytes} as people read it: {@code 64 KiB}, {@code 1 MiB}, {@code 1 GiB}, {@code 1.5 MiB}} */
    static String label(long bytes) {
        for (long[] unit : new long[][] {{GIB, 'G'}, {MIB, 'M'}, {KIB, 'K'}}) {
            if (bytes >= unit[0]) {
                double value = bytes / (double) unit[0];
                String number = value == Math.rint(value) ? Long.toString((long) value) : String.format(Locale.ROOT, "%.2f", value);
                return number + " " + (char) unit[1] + "iB";
            }
        }
        return bytes + " B";
    }

    private static List<String> list(String value) {
        return Arrays.stream(value.split(",")).map(String::strip).filter(s -> !s.isEmpty()).toList();
    }
}
