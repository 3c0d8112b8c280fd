package dev.quiver.structure;

import dev.quiver.DeviceArray;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * References inside {@code api} run down {@link PackageLayers}' layers but for a short named list, which may only
 * shrink. What is on it is the memory pools, which implement the public pool interfaces of {@code dev.quiver.memory}
 * from below, and the checked device view, which reads the public pinned-memory policy.
 */
class ApiLayersTest {
    private static final List<String> ARROWS_BACK_UP = List.of(
            "dev.quiver.internal.backend.CheckedBackendDevice -> dev.quiver.memory.PinnedHostPolicy",
            "dev.quiver.internal.pool.BackendAllocator -> dev.quiver.memory.DeviceAllocator",
            "dev.quiver.internal.pool.CachingPool -> dev.quiver.memory.DeviceAllocator",
            "dev.quiver.internal.pool.CachingPool -> dev.quiver.memory.MemoryPool",
            "dev.quiver.internal.pool.CachingPool -> dev.quiver.memory.PoolStats");

    @Test
    void referencesRunDownTheLayersButForTheNamedFew() throws URISyntaxException {
        Path classes = Path.of(DeviceArray.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> found = PackageLayers.arrowsBackUp(CompiledClasses.under(classes));
        List<String> problems = new ArrayList<>();
        found.stream().filter(arrow -> !ARROWS_BACK_UP.contains(arrow))
                .forEach(arrow -> problems.add(arrow + " runs back up the layers: depend downwards, or move the class"));
        ARROWS_BACK_UP.stream().filter(arrow -> !found.contains(arrow))
                .forEach(arrow -> problems.add(arrow + " is gone: take it off ARROWS_BACK_UP"));
        assertEquals(List.of(), problems);
    }

    @Test
    void theLayerScanSeesAnArrowBackUp() {
        ClassFile pool = new ClassFile("dev.quiver.internal.pool.SomePool",
                Set.of("dev.quiver.memory.MemoryPool$Stats", "dev.quiver.type.Field", "dev.quiver.spi.BackendDevice"),
                List.of());
        assertEquals(List.of("dev.quiver.internal.pool.SomePool -> dev.quiver.memory.MemoryPool"),
                PackageLayers.arrowsBackUp(List.of(pool)));
    }
}
