package dev.quiver;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@value DeviceRanking#ENVIRONMENT} environment variable reorders {@link Devices#ranked()} when the
 * {@value DeviceRanking#PROPERTY} property is not set, and the property wins over it. Each case runs
 * {@link RankingMain} in a JVM of its own, whose environment the test sets.
 */
class DeviceRankingEnvironmentTest {

    @Test
    void withoutEitherTheDefaultOrderHolds() throws Exception {
        assertEquals(List.of("[CUDA:0, CUDA:1, OPENCL:0, OPENCL:1, CPU:-1]", "CUDA:0"), ranking(null, null));
    }

    @Test
    void theEnvironmentVariableReordersTheDevices() throws Exception {
        assertEquals(List.of("[CPU:-1, OPENCL:0, OPENCL:1, CUDA:0, CUDA:1]", "CPU:-1"), ranking("cpu,opencl", null));
    }

    @Test
    void thePropertyWinsOverTheEnvironment() throws Exception {
        assertEquals(List.of("[OPENCL:0, OPENCL:1, CUDA:0, CUDA:1, CPU:-1]", "OPENCL:0"), ranking("cpu", "opencl"));
    }

    private static List<String> ranking(String environment, String property) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED"));
        if (property != null) {
            command.add("-D" + DeviceRanking.PROPERTY + "=" + property);
        }
        command.addAll(List.of("-cp", System.getProperty("java.class.path"), RankingMain.class.getName()));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().remove(DeviceRanking.ENVIRONMENT);
        if (environment != null) {
            builder.environment().put(DeviceRanking.ENVIRONMENT, environment);
        }
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(2, TimeUnit.MINUTES), "the JVM finished");
        assertEquals(0, process.exitValue(), output);
        return output.lines().toList();
    }
}
