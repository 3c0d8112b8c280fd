package dev.quiver.arrowjava;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The module descriptor works: a named module that {@code requires dev.quiver.arrowjava} compiles against
 * the module path and runs there, with native access granted to exactly the modules the documentation names
 * (and illegal native access denied). Arrow Java's netty allocator cannot join it: arrow-memory-netty-buffer-patch
 * adds classes to netty's {@code io.netty.buffer} package, a split package the module system refuses, so the
 * four netty jars stay on the class path, where Arrow Java's memory module finds the allocator reflectively.
 */
class ModulePathTest {
    private static final Predicate<String> NETTY = entry -> entry.contains("netty");
    private static final Predicate<String> TEST_ONLY = entry -> entry.endsWith("test-classes") || entry.contains("junit")
            || entry.contains("opentest4j") || entry.contains("apiguardian") || entry.contains("testkit");
    private static final List<String> NATIVE_ACCESS = List.of("dev.quiver.api", "dev.quiver.device.cpu", "dev.quiver.arrowjava", "org.apache.arrow.c");

    @TempDir
    Path work;

    @Test
    void aNamedModuleUsesTheBridgeFromTheModulePath() throws Exception {
        Result run = run(compile(), modulePath(NETTY.negate()), String.join(java.io.File.pathSeparator, entries(NETTY)));
        assertEquals(0, run.code(), run.output());
        assertTrue(run.output().contains("quiver read [7, null, 9]"), run.output());
        assertTrue(run.output().contains("arrow java read [{\"name\":\"a\"}, {}, {\"name\":\"c\"}]"), run.output());
        assertTrue(run.output().contains("allocated after close 0"), run.output());
    }

    @Test
    void nettysSplitPackageKeepsItsAllocatorOffTheModulePath() throws Exception {
        Result run = run(compile(), modulePath(entry -> true), "", "--add-modules", "io.netty.buffer");
        assertNotEquals(0, run.code());
        assertTrue(run.output().contains("io.netty.buffer") && run.output().contains("arrow.memory.netty.buffer.patch"), run.output());
    }

    private Path compile() throws IOException {
        Path sources = work.resolve("src");
        Files.createDirectories(sources.resolve("bridge/user"));
        copy("modulepath/module-info.java", sources.resolve("module-info.java"));
        copy("modulepath/Main.java", sources.resolve("bridge/user/Main.java"));
        Path classes = work.resolve("classes");
        ByteArrayOutputStream diagnostics = new ByteArrayOutputStream();
        int code = ToolProvider.getSystemJavaCompiler().run(null, diagnostics, diagnostics, "-d", classes.toString(),
                "--module-path", modulePath(NETTY.negate()), sources.resolve("module-info.java").toString(),
                sources.resolve("bridge/user/Main.java").toString());
        assertEquals(0, code, diagnostics.toString(StandardCharsets.UTF_8));
        return classes;
    }

    private record Result(int code, String output) {}

    private static Result run(Path module, String modulePath, String classPath, String... extra) throws Exception {
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "--module-path", modulePath + java.io.File.pathSeparator + module,
                "--enable-native-access=" + String.join(",", NATIVE_ACCESS),
                "--add-opens=java.base/java.nio=org.apache.arrow.memory.core", "-Dio.netty.noUnsafe=false"));
        if (Runtime.version().feature() >= 24) {
            command.add("--illegal-native-access=deny");
        }
        if (!classPath.isEmpty()) {
            command.addAll(List.of("-cp", classPath));
        }
        command.addAll(List.of(extra));
        command.addAll(List.of("-m", "bridge.user/bridge.user.Main"));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(60, TimeUnit.SECONDS), "the child JVM finished");
        return new Result(process.exitValue(), output);
    }

    private static String modulePath(Predicate<String> include) {
        return String.join(java.io.File.pathSeparator, entries(include));
    }

    private static List<String> entries(Predicate<String> include) {
        return List.of(System.getProperty("java.class.path").split(java.io.File.pathSeparator)).stream()
                .filter(TEST_ONLY.negate()).filter(include).toList();
    }

    private static void copy(String resource, Path to) throws IOException {
        try (InputStream in = ModulePathTest.class.getResourceAsStream(resource)) {
            Files.write(to, in.readAllBytes());
        }
    }
}
