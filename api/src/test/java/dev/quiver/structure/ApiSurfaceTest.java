package dev.quiver.structure;

import dev.quiver.DeviceArray;
import org.junit.jupiter.api.Test;

import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * How much an application sees of {@code quiver-api}: the public top-level types of its unqualified exports, and
 * the public members of {@link DeviceArray}, the handle at the centre of it. Each figure is held to a ceiling that
 * may only come down.
 */
class ApiSurfaceTest {
    private static final int MAX_PUBLIC_TYPES = 70;
    private static final int MAX_DEVICE_ARRAY_MEMBERS = 20;

    @Test
    void theExportedPackagesHoldAtMostTheirCeilingOfPublicTypes() throws URISyntaxException {
        Path classes = Path.of(DeviceArray.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        ModuleDescriptor module = ModuleFinder.of(classes).findAll().iterator().next().descriptor();
        Set<String> exported = new HashSet<>();
        module.exports().stream().filter(e -> !e.isQualified()).forEach(e -> exported.add(e.source()));
        List<String> publicTypes = CompiledClasses.under(classes).stream()
                .filter(c -> exported.contains(c.packageName()) && !c.name().contains("$"))
                .map(ClassFile::name)
                .filter(ApiSurfaceTest::isPublic)
                .toList();
        assertTrue(publicTypes.size() <= MAX_PUBLIC_TYPES,
                publicTypes.size() + " public types, more than " + MAX_PUBLIC_TYPES + ": " + publicTypes);
    }

    private static boolean isPublic(String name) {
        try {
            return Modifier.isPublic(Class.forName(name, false, DeviceArray.class.getClassLoader()).getModifiers());
        } catch (ClassNotFoundException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void deviceArrayHasAtMostItsCeilingOfPublicMembers() {
        List<String> members = Arrays.stream(DeviceArray.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && !m.isSynthetic())
                .map(m -> m.getName() + Arrays.toString(m.getParameterTypes()))
                .toList();
        assertTrue(members.size() <= MAX_DEVICE_ARRAY_MEMBERS,
                members.size() + " public members, more than " + MAX_DEVICE_ARRAY_MEMBERS + ": " + members);
    }
}
