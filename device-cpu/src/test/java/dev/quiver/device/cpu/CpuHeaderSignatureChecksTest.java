package dev.quiver.device.cpu;

import dev.quiver.testkit.CHeaderCheck;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Checks the C library bindings of {@link LibCFunction} against the system's {@code stdlib.h},
 * {@code string.h} and {@code sys/mman.h} with the C compiler: each function's declared type, and the size and kind of every C type
 * against its Java layout.
 */
class CpuHeaderSignatureChecksTest {

    @Test
    void everyDeclarationMatchesTheCLibraryHeaders() {
        CHeaderCheck check = new CHeaderCheck(List.of("#define _POSIX_C_SOURCE 200112L", "#define _DEFAULT_SOURCE", "#include <stdlib.h>",
                "#include <string.h>", "#include <sys/mman.h>"));
        for (LibCFunction function : LibCFunction.values()) {
            check.function(function.c().prototype(), function.c().descriptor());
            assertEquals(function.name(), function.c().symbol(), "each entry is named after its symbol");
        }
        check.run("libc_header_checks.c", List.of());
    }
}
