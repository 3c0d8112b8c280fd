package dev.quiver.benchmarks;

import dev.quiver.Devices;
import dev.quiver.ProviderReport;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * Prints the milliseconds from JVM start to the first listing of {@link Devices#system()} with every
 * plugin on the class path (each probed), or, with {@code --baseline}, from JVM start to {@code main}.
 * Run in a fresh JVM per measurement; {@link RunAll} does that.
 */
public final class DiscoveryTiming {
    private DiscoveryTiming() {}

    /**
     * @param args {@code --baseline} to measure JVM start only
     */
    public static void main(String[] args) {
        Instant start = Instant.ofEpochMilli(ManagementFactory.getRuntimeMXBean().getStartTime());
        int providers = 0;
        if (args.length == 0 || !args[0].equals("--baseline")) {
            List<ProviderReport> report = Devices.system().report();
            providers = report.size();
        }
        System.out.println(Duration.between(start, Instant.now()).toMillis() + " " + providers);
    }
}
