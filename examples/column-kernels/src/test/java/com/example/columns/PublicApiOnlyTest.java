package com.example.columns;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The library's compiled classes use Quiver's public API alone: no {@code dev.quiver.internal} package,
 * no backend ({@code dev.quiver.device.*}) or SPI class, no reflection, as {@code jdeps} and the constant
 * pools tell.
 */
class PublicApiOnlyTest {
    private static Path libraryClasses() {
        String directory = System.getProperty("columns.classes");
        assertTrue(directory != null && Files.isDirectory(Path.of(directory)),
                "the build passes the library's classes directory as columns.classes, got " + directory);
        return Path.of(directory);
    }

    @Test
    void theLibraryDependsOnNoInternalBackendOrReflectionClass() {
        List<Path> classes = ClassScan.classFiles(libraryClasses());
        assertTrue(classes.stream().anyMatch(c -> c.endsWith(Path.of("com/example/columns/OpenClColumns.class"))),
                "the scan sees the library's classes: " + classes);
        assertEquals(List.of(), ClassScan.forbiddenDependencies(classes));
        assertEquals(List.of(), ClassScan.forbiddenCalls(classes));
        assertTrue(ClassScan.dependencies(classes).stream().anyMatch(d -> d.to().equals("dev.quiver.DeviceArray")),
                "jdeps sees the library's use of dev.quiver");
    }

    @Test
    void theModuleRequiresTheApiAlone() throws IOException {
        try (InputStream in = Files.newInputStream(libraryClasses().resolve("module-info.class"))) {
            ModuleDescriptor module = ModuleDescriptor.read(in);
            assertEquals("com.example.columns", module.name());
            assertEquals(Set.of("java.base", "dev.quiver.api"),
                    module.requires().stream().map(ModuleDescriptor.Requires::name).collect(Collectors.toSet()));
        }
    }

    @Test
    void theScanSeesReflectionWhereThereIsSome() throws URISyntaxException {
        Path probe = Path.of(ReflectiveProbe.class.getResource("ReflectiveProbe.class").toURI());
        assertEquals(List.of(
                        "com.example.columns.ReflectiveProbe -> java.lang.reflect.Field"),
                ClassScan.forbiddenDependencies(List.of(probe)));
        List<String> calls = ClassScan.forbiddenCalls(List.of(probe));
        for (String expected : List.of("java/lang/Class.forName", "java/lang/Class.getDeclaredField",
                "java/lang/reflect/Field.setAccessible", "java/lang/invoke/MethodHandles.privateLookupIn",
                "java/lang/invoke/MethodHandles$Lookup.findStaticGetter")) {
            assertTrue(calls.stream().anyMatch(call -> call.startsWith(expected)), expected + " in " + calls);
        }
    }
}
