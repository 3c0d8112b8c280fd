package dev.quiver.benchmarks.handoff;

import dev.quiver.DeviceType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The handoff harness with {@code --device vulkan}, for real on Mesa's lavapipe under the Khronos validation layer
 * (the module's surefire settings), at a tiny size so that it cannot rot: an owner in a child JVM, a 1 MiB batch,
 * two timings per route. Checked: the batch arrived zero-copy as a Vulkan array every time, the shape of what is
 * printed, every time positive, and the ratio the medians give; never a figure. Neither JVM may get a validation
 * message (the harness fails where the owner got one).
 */
class VulkanHandoffVersusFlightTest {
    private static final Pattern LINE = Pattern.compile(
            "\\| (.+?) \\| (.+?) \\| ([0-9.]+) \\(([0-9.]+)\\) \\| ([0-9.]+) \\| ([0-9.]+) \\(([0-9.]+)\\) \\| ([0-9.]+) \\| (.+?) \\|");

    @Test
    void aBatchOnLavapipeArrivesZeroCopyAndTheTableIsWellFormedWithPositiveTimes() throws Exception {
        assertTrue(LavapipeDevice.validation(), "the module's surefire settings turn the validation layer on");
        int validationBefore = ValidationMessages.all().size();
        HandoffVersusFlight.Options options = HandoffVersusFlight.Options.parse("--device", "vulkan", "--rows", "131072",
                "--handoffs", "2", "--flight-runs", "2");
        VulkanHandoffVersusFlight.Run run = VulkanHandoffVersusFlight.run(options);
        String table = VulkanHandoffTable.format(run);
        System.out.print(table);

        List<String> messages = ValidationMessages.all();
        assertEquals(List.of(), messages.subList(validationBefore, messages.size()), "the validation layer in the harness's process");
        assertTrue(run.deviceName().startsWith("llvmpipe"), run.deviceName());
        assertTrue(run.validation());
        assertEquals(1, run.rows().size());
        VulkanHandoffRow row = run.rows().getFirst();
        assertEquals(131_072L, row.rows());
        assertEquals(2, row.zeroCopy(), "every handoff used the owner's device memory, opened from its descriptor");
        assertEquals(DeviceType.VULKAN, row.arrivedOn(), "an array of this JVM's lavapipe");
        TimingAssertions.assertTimings(row, row.handoff(), row.withConnect(), List.of(row.bytes()));
        assertEquals(2, row.handoff().count());
        assertEquals(2, row.bytes().count());

        List<String> lines = table.lines().toList();
        assertEquals("Vulkan on " + run.deviceName() + ", validation layer on", lines.get(0));
        assertEquals("share handoffs: 2 per size; Flight DoGet fetches: 2 per size", lines.get(1));
        assertEquals("", lines.get(2));
        assertEquals(VulkanHandoffTable.HEADER, lines.get(3));
        assertEquals(VulkanHandoffTable.SEPARATOR, lines.get(4));
        assertEquals(6, lines.size());
        Matcher cells = LINE.matcher(lines.get(5));
        assertTrue(cells.matches(), "not a line of the table: " + lines.get(5));
        assertEquals("131,072 rows", cells.group(1));
        assertEquals("1 MiB", cells.group(2));
        for (int group = 3; group <= 8; group++) {
            assertTrue(Double.parseDouble(cells.group(group)) > 0, lines.get(5) + ": cell " + group + " is not positive");
        }
        assertEquals("2 of 2 zero-copy, VULKAN", cells.group(9));
        TimingAssertions.assertRatio(Double.parseDouble(cells.group(6)), Double.parseDouble(cells.group(3)), cells.group(8),
                lines.get(5) + ": DoGet / handoff");
    }

    @Test
    void theDeviceOptionKeepsTheHostDefaultAndRefusesADeviceItDoesNotKnowNamingIt() {
        HandoffVersusFlight.Options host = HandoffVersusFlight.Options.parse();
        assertEquals(HandoffDevice.CPU, host.device());
        assertEquals(List.of(1L, 131_072L, 1_000_000L, 8_388_608L, 134_217_728L), host.rows());
        HandoffVersusFlight.Options vulkan = HandoffVersusFlight.Options.parse("--device", "vulkan");
        assertEquals(List.of(131_072L, 8_388_608L, 134_217_728L), vulkan.rows(), "1 MiB, 64 MiB, 1 GiB");
        assertEquals(List.of(5L), HandoffVersusFlight.Options.parse("--rows", "5", "--device", "vulkan").rows());
        String refusal = assertThrows(IllegalArgumentException.class, () -> HandoffVersusFlight.Options.parse("--device", "metal"))
                .getMessage();
        assertTrue(refusal.contains("metal") && refusal.contains("[cpu, vulkan]"), refusal);
        assertTrue(assertThrows(IllegalArgumentException.class, () -> VulkanHandoffVersusFlight.run(host)).getMessage().contains("cpu"));
    }
}
