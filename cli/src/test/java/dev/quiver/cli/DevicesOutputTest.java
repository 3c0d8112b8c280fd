package dev.quiver.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code quiver devices} fits a 100-column terminal, says what would enable a backend, and speaks JSON. */
class DevicesOutputTest {

    @ParameterizedTest
    @ValueSource(strings = {"", "--verbose"})
    void everyLineFitsInOneHundredColumns(String option) {
        CommandRun run = option.isEmpty() ? CommandRun.of("devices") : CommandRun.of("devices", option);
        assertEquals(0, run.code(), run.err());
        run.out().lines().forEach(line -> assertTrue(line.length() <= 100, line.length() + " columns: " + line));
        assertFalse(run.out().contains("\u001b["), "no colour when output is not a terminal");
    }

    @Test
    void jsonHasEveryBackendWithStatusReasonsAndDevices() throws IOException {
        CommandRun run = CommandRun.of("devices", "--json");
        assertEquals(0, run.code(), run.err());
        JsonNode root = new ObjectMapper().readTree(run.out());
        assertEquals(VersionProvider.quiverVersion(), root.get("quiver").asText());
        Map<String, JsonNode> backends = backends(root);
        for (String name : List.of("cpu", "opencl", "vulkan", "cuda", "rocm", "oneapi", "metal")) {
            JsonNode backend = backends.get(name);
            assertNotNull(backend, name + " in " + run.out());
            String status = backend.get("status").asText();
            assertTrue(Set.of("USABLE", "UNAVAILABLE", "EXCLUDED", "FAILED").contains(status), backend.toString());
            assertTrue(backend.get("reasons").isArray() && backend.get("devices").isArray() && backend.get("deviceTypes").isArray(),
                    backend.toString());
            assertTrue(status.equals("USABLE") || !backend.get("reasons").isEmpty(), "an unusable backend says why: " + backend);
        }
        JsonNode cpu = backends.get("cpu").get("devices").get(0);
        assertEquals("CPU", cpu.get("type").asText());
        assertEquals(-1, cpu.get("id").asLong());
        assertTrue(cpu.get("hostAccessible").asBoolean());
        assertTrue(cpu.get("properties").isObject(), cpu.toString());
        JsonNode interProcess = cpu.get("interProcess");
        assertEquals("NONE", interProcess.get("mechanism").asText(), cpu.toString());
        assertEquals("none (copied through shared host memory)", interProcess.get("description").asText());
        assertEquals(0, interProcess.get("handleBytes").asInt());
        assertFalse(interProcess.get("events").asBoolean(), cpu.toString());
        for (JsonNode backend : backends.values()) {
            for (JsonNode device : backend.get("devices")) {
                assertTrue(device.get("interProcess").get("description").asText().length() > 0, "every device says: " + device);
            }
        }
        JsonNode pool = cpu.get("pool");
        assertTrue(pool.get("bytesInUse").asLong() >= 0 && pool.get("cacheLimit").asLong() > 0, "the memory pool's state: " + pool);
        assertEquals("device", pool.get("allocator").asText());
    }

    @Test
    void anUnavailableBackendSaysWhatWouldEnableIt() throws IOException {
        Map<String, JsonNode> backends = backends(new ObjectMapper().readTree(CommandRun.of("devices", "--json").out()));
        assertTrue(backends.get("opencl").get("setupHint").asText().contains("pocl-opencl-icd"), "given through the SPI");
        CommandRun text = CommandRun.of("devices");
        for (JsonNode backend : backends.values()) {
            String hint = backend.get("setupHint").asText();
            if (backend.get("status").asText().equals("UNAVAILABLE") && !hint.isEmpty()) {
                assertTrue(text.block(backend.get("name").asText()).contains("to enable: " + hint), text.out());
            }
        }
    }

    @Test
    void everyDeviceSaysHowItsMemoryReachesAnotherProcess() throws IOException {
        CommandRun text = CommandRun.of("devices");
        Map<String, JsonNode> backends = backends(new ObjectMapper().readTree(CommandRun.of("devices", "--json").out()));
        assertTrue(text.block("cpu").contains("inter-process: none (copied through shared host memory)"), text.out());
        JsonNode lavapipe = backends.get("vulkan").get("devices").get(0);
        assertEquals("VULKAN_FD", lavapipe.get("interProcess").get("mechanism").asText(), "lavapipe offers VK_KHR_external_memory_fd: " + lavapipe);
        assertTrue(text.block("vulkan").contains("inter-process: Vulkan opaque fd (VK_KHR_external_memory_fd)"), text.out());
        for (JsonNode backend : backends.values()) {
            String block = text.block(backend.get("name").asText());
            for (JsonNode device : backend.get("devices")) {
                String line = "inter-process: " + device.get("interProcess").get("description").asText();
                assertTrue(block.contains(line), line + " in " + block);
            }
        }
    }

    private static Map<String, JsonNode> backends(JsonNode root) {
        Map<String, JsonNode> byName = new HashMap<>();
        root.get("backends").forEach(b -> byName.put(b.get("name").asText(), b));
        return byName;
    }
}
