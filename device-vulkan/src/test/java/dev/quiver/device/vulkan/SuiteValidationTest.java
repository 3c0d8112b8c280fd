package dev.quiver.device.vulkan;

import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Runs after every other test class of this module (see {@code junit-platform.properties}): the whole run
 * had validation on, and the validation layer reported nothing about Quiver's use of Vulkan.
 */
@Order(Integer.MAX_VALUE)
class SuiteValidationTest {

    @Test
    void noValidationMessageWasRecordedAcrossTheSuite() {
        assertTrue(ValidationLog.requested(), "this module's tests run with -D" + ValidationLog.PROPERTY + "=true");
        assertEquals("on", Lavapipe.device().properties().get("validation"));
        assertEquals(List.of(), ValidationLog.messages());
    }
}
