package dev.quiver.device.rocm;

import dev.quiver.testkit.CHeaderCheck;
import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Header and signature checks of the ROCm bindings against the installed {@code hip_runtime_api.h}
 * ({@code libamdhip64-dev}, C with {@code __HIP_PLATFORM_AMD__}), generated from {@link HipFunction},
 * {@link HipPointerAttributes} and {@link HipConstants} and judged by the C compiler: each function's declared
 * type, the size and kind of every C type against its Java layout, the struct layout, and every constant.
 */
class RocmHeaderSignatureChecksTest {

    @Test
    void everyDeclarationMatchesTheHipHeaders() {
        CHeaderCheck check = new CHeaderCheck(List.of("#include <hip/hip_runtime_api.h>"));
        for (HipFunction function : HipFunction.values()) {
            check.function(function.c().prototype(), function.c().descriptor());
            check.expansion(function.name());
        }
        check.struct("hipPointerAttribute_t", HipPointerAttributes.LAYOUT);
        int constants = 0;
        for (Field field : HipConstants.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && field.getType() == int.class) {
                try {
                    check.constant(field.getName(), field.getInt(null));
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
                constants++;
            }
        }
        var expansions = check.run("hip_header_checks.c", RocmTestDouble.FLAGS);
        for (HipFunction function : HipFunction.values()) {
            assertEquals(function.name(), expansions.get(function.name()),
                    "hip_runtime_api.h does not rename " + function.name() + ", so the symbol is looked up by that name");
        }
        assertTrue(constants >= 12, "every hard-coded constant is compared: " + constants);
    }
}
