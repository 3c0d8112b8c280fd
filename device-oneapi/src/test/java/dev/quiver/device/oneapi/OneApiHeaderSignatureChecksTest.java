package dev.quiver.device.oneapi;

import dev.quiver.testkit.CHeaderCheck;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Header and signature checks of the Level Zero bindings against the installed {@code ze_api.h}
 * ({@code libze-dev}), generated from {@link ZeFunction}, {@link ZeStructs}, {@link ZeConstants} and
 * {@link ZeResult} and judged by the C compiler: each function's declared type, the size and kind of every C
 * type against its Java layout, every struct's size, alignment and member offsets, and every constant.
 */
class OneApiHeaderSignatureChecksTest {

    @Test
    void everyDeclarationMatchesTheLevelZeroHeader() throws IllegalAccessException {
        CHeaderCheck check = new CHeaderCheck(List.of("#include <stddef.h>", "#include <level_zero/ze_api.h>"));
        for (ZeFunction function : ZeFunction.values()) {
            check.function(function.c().prototype(), function.c().descriptor());
            check.expansion(function.name());
        }
        check.struct("ze_device_properties_t", ZeStructs.DEVICE_PROPERTIES);
        check.struct("ze_device_memory_properties_t", ZeStructs.DEVICE_MEMORY_PROPERTIES);
        check.struct("ze_context_desc_t", ZeStructs.CONTEXT_DESC);
        check.struct("ze_command_queue_desc_t", ZeStructs.COMMAND_QUEUE_DESC);
        check.struct("ze_device_mem_alloc_desc_t", ZeStructs.DEVICE_MEM_ALLOC_DESC);
        check.struct("ze_host_mem_alloc_desc_t", ZeStructs.HOST_MEM_ALLOC_DESC);
        check.struct("ze_event_pool_desc_t", ZeStructs.EVENT_POOL_DESC);
        check.struct("ze_event_desc_t", ZeStructs.EVENT_DESC);
        int constants = 0;
        for (Field field : ZeConstants.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
                check.constant(field.getName(), field.getInt(null));
                constants++;
            }
        }
        for (ZeResult result : ZeResult.values()) {
            check.constant(result.name(), Integer.toUnsignedLong(result.value()));
        }
        Map<String, String> expansions = check.run("ze_header_checks.c", List.of());
        for (ZeFunction function : ZeFunction.values()) {
            assertEquals(function.name(), expansions.get(function.name()), "ze_api.h does not rename " + function.name());
        }
        assertTrue(constants >= 17, "every hard-coded constant is compared: " + constants);
    }
}
