package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The CLI runs without its C baselines ({@code quiver-baselines}, and {@code quiver-cbuild}, which compiles C at run
 * time) unless {@code bench} runs: in a fresh JVM on the jars of the launcher's {@code cli/target/lib} (the CLI's
 * run-time dependencies, listed by the build in the file the system property {@code quiver.cli.launcherPath}
 * names), on the module path as the launcher runs it and on the class path, {@code devices} and the commands' help
 * ({@code bench --help} included) run, with no warning under the launcher's native access list; {@code bench} says
 * what is missing and exits with 1.
 */
class CommandsWithoutBaselinesTest {

    /** The CLI's classes and the jars of the launcher's lib folder, in that order. */
    private static List<String> launcherPath() throws IOException, URISyntaxException {
        List<String> path = new ArrayList<>();
        path.add(Path.of(Quiver.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString());
        String listing = Files.readString(Path.of(System.getProperty("quiver.cli.launcherPath"))).strip();
        path.addAll(Arrays.asList(listing.split(Pattern.quote(File.pathSeparator))));
        return path;
    }

    /** The modules the launcher grants native access to, from its {@code native_modules} line. */
    private static String launcherNativeAccess() throws IOException, URISyntaxException {
        Path classes = Path.of(Quiver.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path launcher = classes.getParent().getParent().getParent().resolve("quiver");
        Matcher line = Pattern.compile("(?m)^native_modules=\"([^\"]+)\"").matcher(Files.readString(launcher));
        assertTrue(line.find(), "the launcher " + launcher + " sets native_modules");
        return line.group(1);
    }

    @Test
    void theLaunchersPathHoldsNeitherTheBaselinesNorTheirCompiler() throws Exception {
        List<String> found = launcherPath().stream()
                .filter(entry -> entry.contains("baselines") || entry.contains("cbuild")).toList();
        assertEquals(List.of(), found);
    }

    @Test
    void commandsRunOnTheModulePathWithoutTheBaselines() throws Exception {
        List<String> options = List.of("--enable-native-access=" + launcherNativeAccess(),
                "--module-path", String.join(File.pathSeparator, launcherPath()), "--module", "dev.quiver.cli/dev.quiver.cli.Quiver");
        checkCommands(options);
    }

    @Test
    void commandsRunOnTheClassPathWithoutTheBaselines() throws Exception {
        List<String> options = List.of("--enable-native-access=ALL-UNNAMED",
                "-cp", String.join(File.pathSeparator, launcherPath()), Quiver.class.getName());
        checkCommands(options);
    }

    private static void checkCommands(List<String> options) throws IOException, InterruptedException {
        Child devices = run(options, "devices");
        assertEquals(0, devices.code, devices.out);
        assertTrue(devices.out.contains("CPU"), devices.out);
        Child selftestHelp = run(options, "selftest", "--help");
        assertEquals(0, selftestHelp.code, selftestHelp.out);
        Child benchHelp = run(options, "bench", "--help");
        assertEquals(0, benchHelp.code, benchHelp.out);
        assertTrue(benchHelp.out.contains("Usage: quiver bench"), benchHelp.out);
        Child bench = run(options, "bench");
        assertEquals(1, bench.code, bench.out);
        assertTrue(bench.out.contains("quiver bench: needs its C baselines, quiver-baselines and quiver-cbuild"), bench.out);
        assertFalse(bench.out.contains("\tat "), "no stack trace: " + bench.out);
        for (Child child : List.of(devices, selftestHelp, benchHelp, bench)) {
            assertFalse(child.out.contains("WARNING"), child.out);
        }
    }

    private record Child(int code, String out) {}

    private static Child run(List<String> options, String... arguments) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(options);
        command.addAll(Arrays.asList(arguments));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("NO_COLOR", "1");
        Process process = builder.start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the JVM finished");
        return new Child(process.exitValue(), out);
    }
}
