package dev.quiver.benchmarks;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.ProviderReport;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Prints the milliseconds from JVM start to the first listing of {@link Devices#system()} with every
 * plugin on the class path (each probed), or, with {@code --baseline}, from JVM start to {@code main}, or,
 * with {@code --cpu-array}, from JVM start to the first CPU {@link DeviceArray} read back (the CPU device from
 * {@link Devices#cpu()}, a column built on the host and moved to it, its values read), or, with
 * {@code --jdk-floor}, from JVM start to the end of the JDK work that the first CPU array cannot do without
 * ({@link JdkFloor}). Run in a fresh JVM per measurement; {@link DiscoveryRuns} does that.
 */
public final class DiscoveryTiming {
    /** The argument that measures JVM start to {@code main}. */
    static final String BASELINE = "--baseline";
    /** The argument that measures JVM start to the first usable CPU array. */
    static final String CPU_ARRAY = "--cpu-array";
    /** The argument that measures JVM start to the end of the JDK's own share of the first CPU array. */
    static final String JDK_FLOOR = "--jdk-floor";

    /** The system property that carries the launch time, in epoch milliseconds, from the launching process. */
    static final String LAUNCHED = "quiver.launched";

    private DiscoveryTiming() {}

    /**
     * @param args {@value #BASELINE} to measure JVM start only, {@value #CPU_ARRAY} to measure the first CPU
     *             array, {@value #JDK_FLOOR} to measure the JDK's share of it, nothing to measure the listing
     */
    public static void main(String[] args) {
        Instant start = launched();
        String mode = args.length == 0 ? "" : args[0];
        StringBuilder steps = new StringBuilder();
        int count = switch (mode) {
            case BASELINE -> 0;
            case CPU_ARRAY -> firstCpuArray();
            case JDK_FLOOR -> JdkFloor.run(steps);
            default -> {
                List<ProviderReport> report = Devices.system().report();
                yield report.size();
            }
        };
        long millis = Duration.between(start, Instant.now()).toMillis();
        if (!steps.isEmpty()) {
            // after the measurement, before the result line that DiscoveryRuns reads
            System.out.println("steps: " + steps);
        }
        System.out.println(millis + " " + count);
    }

    /**
     * {@return when this JVM was launched: the epoch milliseconds the launching process stamped in the
     * property {@value #LAUNCHED} just before starting it, or else the JVM's own start time (whose lookup
     * loads the management classes, a few milliseconds that then count too)}
     */
    private static Instant launched() {
        String stamped = System.getProperty(LAUNCHED);
        return stamped != null ? Instant.ofEpochMilli(Long.parseLong(stamped))
                : Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
    }

    /** @return the number of values read back */
    private static int firstCpuArray() {
        Devices.system().cpu();
        try (DeviceArray column = HostVector.int64("x", 1L, null, 3L).toDeviceArray()) {
            return ArrayReader.of(column).values().size();
        }
    }
}
