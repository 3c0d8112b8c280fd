package dev.quiver.benchmarks;

import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Regenerates the performance record: runs every JMH benchmark with the GC profiler (JSON to
 * {@code results/jmh.json}), times
 * discovery in fresh JVMs ({@code results/discovery.json}), then writes {@code docs/PERFORMANCE.md} and
 * {@code docs/performance.png} with {@link PerformanceReport}. Run from the benchmarks module directory, as
 * {@code mvn -B -q -pl benchmarks -am package -DskipTests -Pperformance} does.
 */
public final class RunAll {
    private static final int DISCOVERY_RUNS = 15;

    private RunAll() {}

    /**
     * @param args optional: the results directory (default {@code results}) and the docs directory
     *             (default {@code ../docs})
     * @throws Exception if a benchmark or a child JVM fails
     */
    public static void main(String[] args) throws Exception {
        Path results = Path.of(args.length > 0 ? args[0] : "results");
        Path docs = Path.of(args.length > 1 ? args[1] : "../docs");
        Files.createDirectories(results);
        Files.createDirectories(docs);
        Options options = new OptionsBuilder()
                .include("dev\\.quiver\\.benchmarks\\.(ExportImportRelease|StreamThroughput|CopyBandwidth|CopyBaselines|EventLatency|HostBuilders|BuildExportRelease)\\.")
                .addProfiler(GCProfiler.class)
                .forks(1)
                .warmupIterations(2).warmupTime(TimeValue.seconds(1))
                .measurementIterations(5).measurementTime(TimeValue.seconds(1))
                .resultFormat(ResultFormatType.JSON).result(results.resolve("jmh.json").toString())
                .build();
        new Runner(options).run();
        List<Long> baseline = discovery(DiscoveryTiming.BASELINE);
        List<Long> listing = discovery(null);
        List<Long> cpuArray = discovery(DiscoveryTiming.CPU_ARRAY);
        Files.writeString(results.resolve("discovery.json"), "{\"jvmStartToMainMillis\": " + baseline
                + ", \"jvmStartToDevicesListingMillis\": " + listing
                + ", \"jvmStartToCpuArrayMillis\": " + cpuArray + "}\n", StandardCharsets.UTF_8);
        PerformanceReport.write(results, docs);
    }

    /** @param mode the argument of {@link DiscoveryTiming}, or null to time the listing */
    private static List<Long> discovery(String mode) throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElse("java");
        List<Long> millis = new ArrayList<>();
        for (int i = 0; i < DISCOVERY_RUNS; i++) {
            List<String> command = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), DiscoveryTiming.class.getName()));
            if (mode != null) {
                command.add(mode);
            }
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
            if (process.waitFor() != 0) {
                throw new IllegalStateException("discovery timing failed: " + out);
            }
            String last = out.lines().reduce((a, b) -> b).orElseThrow();
            millis.add(Long.parseLong(last.split(" ")[0]));
        }
        return millis;
    }
}
