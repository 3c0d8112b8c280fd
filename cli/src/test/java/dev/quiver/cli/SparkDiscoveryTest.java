package dev.quiver.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code quiver devices --spark-resource NAME [--type TYPE]} prints the one JSON line Spark reads from a discovery
 * script, each address naming a device of this machine, and refuses misuse with exit code 2 and a reason.
 */
class SparkDiscoveryTest {

    @Test
    void withATypeTheAddressesAreThatTypesIds() throws IOException {
        CommandRun run = CommandRun.of("devices", "--spark-resource", "gpu", "--type", "opencl");
        assertEquals(0, run.code(), run.err());
        List<String> ids = Devices.system().all().stream().filter(d -> d.type().equals(DeviceType.OPENCL))
                .map(d -> Long.toString(d.id())).toList();
        assertFalse(ids.isEmpty(), "PoCL's device is on this machine");
        assertEquals("{\"name\":\"gpu\",\"addresses\":[\"" + String.join("\",\"", ids) + "\"]}", run.out().strip());
        assertEquals(1, run.out().lines().count(), "one line, nothing else: " + run.out());
    }

    @Test
    void withoutATypeEveryNonCpuDeviceIsTypeColonId() throws IOException {
        CommandRun run = CommandRun.of("devices", "--spark-resource", "accel");
        assertEquals(0, run.code(), run.err());
        JsonNode json = new ObjectMapper().readTree(run.out());
        assertEquals("accel", json.get("name").asText());
        List<Device> named = new ArrayList<>();
        json.get("addresses").forEach(address -> named.add(DeviceNames.parse(address.asText(), Devices.system())));
        List<Device> expected = Devices.system().all().stream().filter(d -> !d.type().equals(DeviceType.CPU)).toList();
        assertEquals(expected, named, run.out());
        assertTrue(run.out().contains("\"opencl:0\""), run.out());
    }

    @Test
    void aTypeWithNoDevicesListsNoAddresses() {
        CommandRun run = CommandRun.of("devices", "--spark-resource", "gpu", "--type", "hexagon");
        assertEquals(0, run.code(), run.err());
        assertEquals("{\"name\":\"gpu\",\"addresses\":[]}", run.out().strip());
    }

    @Test
    void misuseIsExitCodeTwoWithTheReason() {
        assertUsage(CommandRun.of("devices", "--type", "opencl"), "--type opencl goes with --spark-resource NAME");
        assertUsage(CommandRun.of("devices", "--spark-resource", "gpu", "--json"), "leave out --json");
        assertUsage(CommandRun.of("devices", "--spark-resource", "gpu", "--verbose"), "leave out --verbose");
        assertUsage(CommandRun.of("devices", "--spark-resource", "g p u"), "a resource name is letters, digits");
        assertUsage(CommandRun.of("devices", "--spark-resource", ""), "a resource name is not empty");
        assertUsage(CommandRun.of("devices", "--spark-resource", "gpu", "--type", "tpu"), "--type tpu: no device type tpu");
    }

    private static void assertUsage(CommandRun run, String reason) {
        assertEquals(2, run.code(), run.out() + run.err());
        assertTrue(run.err().contains(reason), run.err());
        assertTrue(run.out().isEmpty(), "no JSON for Spark to misread: " + run.out());
    }
}
