package dev.quiver.device.cuda;

import dev.quiver.testkit.CHeaderCheck;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Header and signature checks of the CUDA bindings against the CUDA toolkit headers ({@code cuda.h},
 * {@code cudaTypedefs.h}), generated from {@link CudaFunction} and {@link CudaConstants} and judged by the C
 * compiler. For every entry point:
 * <ul>
 *   <li>the versioned symbol's declaration has exactly the declared C type, and each C type has the size and
 *       kind of the Java layout carrying it;</li>
 *   <li>{@code PFN_<name>_v<variant>} has that type too;</li>
 *   <li>the variant is the one {@code cuGetProcAddress} selects at the target version: the newest
 *       {@code PFN_<name>_vN} in {@code cudaTypedefs.h} with {@code N <= 12000};</li>
 *   <li>the header maps the bare name to the declared symbol, which is therefore never looked up by its bare
 *       name.</li>
 * </ul>
 * Every constant the backend hard-codes is compared with the header.
 */
class CudaHeaderSignatureChecksTest {
    private static final Path INCLUDE = Path.of(CudaTestDouble.INCLUDE);
    private static final Pattern VARIANT = Pattern.compile("\\bPFN_(\\w+?)_v(\\d+)\\)");

    @Test
    void everyDeclarationMatchesTheCudaHeaders() throws IOException {
        assertTrue(Files.isRegularFile(INCLUDE.resolve("cuda.h")), "CUDA toolkit headers are needed at " + INCLUDE
                + " (set -Dquiver.cuda.include)");
        CHeaderCheck check = new CHeaderCheck(List.of("#include <cuda.h>", "#include <cudaTypedefs.h>"));
        for (CudaFunction function : CudaFunction.values()) {
            check.function(function.c().prototype(), function.c().descriptor());
            check.functionPointerType("PFN_" + function.name() + "_v" + function.variant(), function.c().prototype(), function.c().descriptor());
            check.expansion(function.name());
        }
        int constants = 0;
        for (Field field : CudaConstants.class.getDeclaredFields()) {
            if (Modifier.isStatic(field.getModifiers()) && (field.getType() == int.class || field.getType() == long.class)) {
                try {
                    check.constant(field.getName(), ((Number) field.get(null)).longValue());
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
                constants++;
            }
        }
        check.expansion("CUDA_VERSION");
        Map<String, String> expansions = check.run("cuda_header_checks.c", List.of("-I" + INCLUDE));

        for (CudaFunction function : CudaFunction.values()) {
            assertEquals(function.c().symbol(), expansions.get(function.name()),
                    "cuda.h maps " + function.name() + " to the symbol that cuGetProcAddress returns for it");
        }
        assertTrue(Integer.parseInt(expansions.get("CUDA_VERSION")) >= CudaDriver.TARGET_VERSION,
                "the headers are at least as new as the target version");
        assertTrue(constants >= 17, "every hard-coded constant is compared: " + constants);
    }

    @Test
    void eachVariantIsTheOneTheTargetVersionSelects() throws IOException {
        String typedefs = Files.readString(INCLUDE.resolve("cudaTypedefs.h"));
        for (CudaFunction function : CudaFunction.values()) {
            int selected = 0;
            Matcher m = VARIANT.matcher(typedefs);
            while (m.find()) {
                int version = Integer.parseInt(m.group(2));
                if (m.group(1).equals(function.name()) && version <= CudaDriver.TARGET_VERSION) {
                    selected = Math.max(selected, version);
                }
            }
            assertEquals(selected, function.variant(), function.name() + ": cuGetProcAddress at "
                    + CudaDriver.TARGET_VERSION + " returns PFN_" + function.name() + "_v" + selected);
        }
    }
}
