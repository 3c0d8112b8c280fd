package dev.quiver.benchmarks;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs {@link DiscoveryTiming} in fresh JVMs, interleaved: JVM start to {@code main}, to the listing of every
 * plugin, to the first CPU array, and to the end of the JDK's own share of that array ({@link JdkFloor}),
 * each plain and, on a JDK that writes one, with an ahead-of-time cache trained on that same run
 * ({@code -XX:AOTCacheOutput}, JDK 25), the way an application that ships one starts; and the application's
 * cases once more with the cache and the JIT's first tier only ({@code -XX:TieredStopAtLevel=1}). Each runs
 * on two class paths: an application's with the seven plugins (Quiver's API, SPI and device jars, and
 * LWJGL), and this module's whole class path (Arrow Java, JMH and their dependencies besides), since the JDK
 * opens every jar to look for the providers' service file. The launch time is stamped by this process just
 * before each start, so the figures include creating the process and the JVM. Prints one line per case:
 * median and range in milliseconds.
 */
public final class DiscoveryRuns {
    private static final String LAUNCH_PLACEHOLDER = "-D" + DiscoveryTiming.LAUNCHED + "=(launch)";
    /** The option that keeps the JIT to its first tier (C1). */
    private static final String C1_ONLY = "-XX:TieredStopAtLevel=1";

    private DiscoveryRuns() {}

    /**
     * @param args optional: the number of runs per case (default 15); then, optionally, {@code --against}
     *             and the root of another checkout of Quiver, built ({@code mvn -o package -DskipTests}
     *             there), to time the listing and the first CPU array with its jars beside this checkout's,
     *             interleaved, on the application class path with a cache
     * @throws Exception if a child JVM fails
     */
    public static void main(String[] args) throws Exception {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 15;
        Path against = args.length > 2 && args[1].equals("--against") ? Path.of(args[2]).toAbsolutePath().normalize() : null;
        String java = ProcessHandle.current().info().command().orElse("java");
        // an AOT cache takes jars only: the class path's directories (this module's classes) go into one
        Path work = Files.createTempDirectory("quiver-discovery");
        List<String> everything = jarredClassPath(work);
        List<String> application = applicationClassPath(everything);
        String applicationPath = String.join(File.pathSeparator, application);
        boolean comparing = against != null;
        Map<String, String> classPaths = new LinkedHashMap<>();
        Map<String, String> modes = new LinkedHashMap<>();
        if (comparing) {
            classPaths.put("this checkout", applicationPath);
            classPaths.put(against.toString(), String.join(File.pathSeparator, fromCheckout(application, against)));
        } else {
            classPaths.put(application.size() + " jars", applicationPath);
            classPaths.put(everything.size() + " jars", String.join(File.pathSeparator, everything));
            modes.put("JVM start to main", DiscoveryTiming.BASELINE);
        }
        modes.put("JVM start to Devices listing", "");
        modes.put("JVM start to first CPU array", DiscoveryTiming.CPU_ARRAY);
        if (!comparing) {
            modes.put("JVM start to the JDK's share of a first array", DiscoveryTiming.JDK_FLOOR);
        }
        Map<String, List<String>> cases = new LinkedHashMap<>();
        int trained = 0;
        for (Map.Entry<String, String> classPath : classPaths.entrySet()) {
            for (Map.Entry<String, String> mode : modes.entrySet()) {
                String name = mode.getKey() + ", " + classPath.getKey();
                if (!comparing) {
                    cases.put(name, command(java, classPath.getValue(), mode.getValue()));
                }
                Path cache = work.resolve("case-" + trained++ + ".aot");
                Process process = new ProcessBuilder(stamped(command(java, classPath.getValue(), mode.getValue(),
                        "-XX:AOTCacheOutput=" + cache))).redirectErrorStream(true).start();
                process.getInputStream().readAllBytes();
                if (process.waitFor() != 0 || !Files.isRegularFile(cache)) {
                    continue;
                }
                String useCache = "-XX:AOTCache=" + cache;
                cases.put(name + ", AOT cache", command(java, classPath.getValue(), mode.getValue(), useCache));
                if (!comparing && classPath.getValue().equals(applicationPath) && !mode.getValue().equals(DiscoveryTiming.JDK_FLOOR)) {
                    // the JIT's first tier only: a short-lived program's choice on a machine with few cores
                    cases.put(name + ", AOT cache, " + C1_ONLY, command(java, classPath.getValue(), mode.getValue(), useCache, C1_ONLY));
                }
            }
        }
        Map<String, List<Long>> times = new LinkedHashMap<>();
        Map<String, Map<String, List<Double>>> steps = new LinkedHashMap<>();
        for (int i = 0; i < runs; i++) {
            for (Map.Entry<String, List<String>> each : cases.entrySet()) {
                times.computeIfAbsent(each.getKey(), k -> new ArrayList<>()).add(run(each.getValue(),
                        steps.computeIfAbsent(each.getKey(), k -> new LinkedHashMap<>())));
            }
        }
        System.out.println("| measure | median ms | range |");
        System.out.println("|---|---|---|");
        for (Map.Entry<String, List<Long>> entry : times.entrySet()) {
            double[] sorted = sorted(entry.getValue());
            System.out.printf("| %s | %.0f | %.0f-%.0f |%n", entry.getKey(), sorted[sorted.length / 2], sorted[0], sorted[sorted.length - 1]);
        }
        for (Map.Entry<String, Map<String, List<Double>>> entry : steps.entrySet()) {
            if (!entry.getValue().isEmpty()) {
                StringBuilder line = new StringBuilder("steps, median ms, " + entry.getKey() + ":");
                entry.getValue().forEach((step, ms) -> line.append(' ').append(step).append('=').append(sorted(ms)[ms.size() / 2]));
                System.out.println(line);
            }
        }
    }

    /** {@return the numbers, ascending} */
    private static double[] sorted(List<? extends Number> numbers) {
        return numbers.stream().mapToDouble(Number::doubleValue).sorted().toArray();
    }

    /**
     * {@return the entries an application with the seven plugins has: Quiver's API, SPI and device jars,
     * LWJGL (which the Vulkan plugin needs), and the jarred directories (this module's classes, which hold
     * {@link DiscoveryTiming})}
     */
    private static List<String> applicationClassPath(List<String> entries) {
        List<String> kept = new ArrayList<>();
        for (String entry : entries) {
            String name = Path.of(entry).getFileName().toString();
            if (name.startsWith("quiver-api-") || name.startsWith("quiver-spi-") || name.startsWith("quiver-device-")
                    || name.startsWith("lwjgl-") || name.startsWith(JARRED)) {
                kept.add(entry);
            }
        }
        return kept;
    }

    /** {@return the command that runs {@link DiscoveryTiming} in {@code mode}, with these JVM options first} */
    private static List<String> command(String java, String classPath, String mode, String... options) {
        List<String> command = new ArrayList<>(List.of(java));
        command.addAll(List.of(options));
        if (options.length > 0) {
            command.add("-Xlog:aot=off,cds=off");
        }
        command.addAll(List.of("--enable-native-access=ALL-UNNAMED", "-cp", classPath));
        command.add(LAUNCH_PLACEHOLDER);
        command.add(DiscoveryTiming.class.getName());
        if (!mode.isEmpty()) {
            command.add(mode);
        }
        return command;
    }

    /**
     * {@return the milliseconds the child reports, its launch stamped now}
     *
     * @param steps where the times of the steps it reports, if any, are added, by step name
     */
    private static long run(List<String> template, Map<String, List<Double>> steps) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(stamped(template)).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (process.waitFor() != 0) {
            throw new IllegalStateException("discovery timing failed: " + out);
        }
        out.lines().filter(line -> line.startsWith(STEPS)).forEach(line -> {
            for (String step : line.substring(STEPS.length()).strip().split(" ")) {
                String[] nameAndTime = step.split("=");
                steps.computeIfAbsent(nameAndTime[0], k -> new ArrayList<>()).add(Double.parseDouble(nameAndTime[1]));
            }
        });
        String last = out.lines().reduce((a, b) -> b).orElseThrow();
        return Long.parseLong(last.split(" ")[0]);
    }

    /** How a child's line of step times starts. */
    private static final String STEPS = "steps:";

    /** {@return {@code template} with the launch time, now, in place of its placeholder} */
    private static List<String> stamped(List<String> template) {
        List<String> command = new ArrayList<>(template);
        command.replaceAll(a -> a.equals(LAUNCH_PLACEHOLDER) ? "-D" + DiscoveryTiming.LAUNCHED + "=" + System.currentTimeMillis() : a);
        return command;
    }

    /**
     * {@return {@code entries} with each of this checkout's jars replaced by the same file in {@code other}}
     *
     * @throws IllegalStateException if {@code other} lacks one: it has not been built
     */
    private static List<String> fromCheckout(List<String> entries, Path other) throws Exception {
        Path ours = Path.of(DiscoveryRuns.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .getParent().getParent().getParent();
        List<String> replaced = new ArrayList<>();
        for (String entry : entries) {
            Path path = Path.of(entry).toAbsolutePath().normalize();
            if (path.startsWith(ours)) {
                path = other.resolve(ours.relativize(path));
                if (!Files.isRegularFile(path)) {
                    throw new IllegalStateException(path + " is missing: build the other checkout first (mvn -o package -DskipTests)");
                }
            }
            replaced.add(path.toString());
        }
        return replaced;
    }

    /** The file name prefix of a jar made from a class path directory. */
    private static final String JARRED = "classes-";

    /** @return this JVM's class path with each directory replaced by a jar of its contents, made in {@code work} */
    private static List<String> jarredClassPath(Path work) throws IOException, InterruptedException {
        List<String> entries = new ArrayList<>(Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator)));
        String jar = Path.of(System.getProperty("java.home"), "bin", "jar").toString();
        for (int i = 0; i < entries.size(); i++) {
            Path entry = Path.of(entries.get(i));
            if (Files.isDirectory(entry)) {
                Path packed = work.resolve(JARRED + i + ".jar");
                Process process = new ProcessBuilder(jar, "cf", packed.toString(), "-C", entry.toString(), ".")
                        .redirectErrorStream(true).start();
                process.getInputStream().readAllBytes();
                if (process.waitFor() != 0) {
                    throw new IllegalStateException("could not pack " + entry + " into a jar");
                }
                entries.set(i, packed.toString());
            }
        }
        return entries;
    }
}
