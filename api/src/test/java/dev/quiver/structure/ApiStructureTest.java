package dev.quiver.structure;

import dev.quiver.Copies;
import dev.quiver.DeviceArray;
import org.junit.jupiter.api.Test;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The package structure of the compiled API: no package cycle, no restricted FFM call outside the C ABI
 * package, and no pair of files in {@code dev.quiver} that use each other beyond today's list. The rules for the
 * sources of every module are {@link ModuleSourcesTest}'s. {@link StructureChecksTest} proves that the checks catch
 * what they look for.
 */
class ApiStructureTest {
    private static final String ABI_PACKAGE = "dev.quiver.internal.abi";
    /**
     * The pairs of files in package {@code dev.quiver} that use each other (measured on class files by
     * {@link FileDependencies}), as they are today: none may be added, and one that is gone must be taken off, so the
     * number only falls. What is left is the device model, whose parts name each other (a device makes streams and
     * events that say which device they are of); {@code DeviceArray}'s helpers depend one way.
     */
    private static final List<String> TWO_WAY_FILES = List.of(
            "Device <-> DeviceBuffer",
            "Device <-> DeviceStream",
            "Device <-> Devices");

    private static List<ClassFile> apiClasses() throws URISyntaxException {
        Path classes = Path.of(DeviceArray.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return CompiledClasses.under(classes);
    }

    @Test
    void theApiPackagesFormNoCycle() throws URISyntaxException {
        assertEquals(List.of(), PackageCycles.find(apiClasses()));
    }

    @Test
    void filesOfDevQuiverUseEachOtherOnlyWhereListed() throws URISyntaxException {
        List<String> found = FileDependencies.twoWay(apiClasses(), "dev.quiver");
        List<String> problems = new ArrayList<>();
        found.stream().filter(pair -> !TWO_WAY_FILES.contains(pair))
                .forEach(pair -> problems.add(pair + " use each other: let one of them depend on the other, not both"));
        TWO_WAY_FILES.stream().filter(pair -> !found.contains(pair))
                .forEach(pair -> problems.add(pair + " no longer use each other: take the pair off TWO_WAY_FILES"));
        assertEquals(List.of(), problems);
    }

    @Test
    void onlyTheAbiPackageMakesRestrictedCalls() throws URISyntaxException {
        assertEquals(List.of(), RestrictedCalls.outside(apiClasses(), ABI_PACKAGE));
    }

    @Test
    void noPackageReachesAnotherReflectively() throws URISyntaxException {
        assertEquals(List.of(), ReflectiveAccess.in(apiClasses()));
    }

    @Test
    void theReflectionScanFindsWhatItLooksFor() throws URISyntaxException {
        Path testClasses = Path.of(ReflectiveSample.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<ClassFile> sample = CompiledClasses.under(testClasses).stream()
                .filter(c -> c.name().equals(ReflectiveSample.class.getName())).toList();
        assertEquals(List.of(
                "dev.quiver.structure.ReflectiveSample calls java.lang.Class.getDeclaredField",
                "dev.quiver.structure.ReflectiveSample calls java.lang.reflect.Field.setAccessible",
                "dev.quiver.structure.ReflectiveSample calls java.lang.Class.getMethod",
                "dev.quiver.structure.ReflectiveSample calls java.lang.invoke.MethodHandles.privateLookupIn"),
                ReflectiveAccess.in(sample));
    }

    @Test
    void noExportedSignatureNamesAnSpiBackendOrInternalType() throws URISyntaxException {
        List<String> found = PublicSignatures.naming(classesDirectory(), DeviceArray.class.getClassLoader(),
                ApiStructureTest::notForApplications);
        // dev.quiver.plugin is where the API meets the SPI, and the only package allowed to name it
        assertEquals(List.of(), found.stream().filter(line -> !line.startsWith("plugin.")).toList());
        assertEquals(List.of("plugin.Backends.devices(...) takes dev.quiver.spi.DeviceProvider",
                "plugin.Backends.of(...) returns dev.quiver.spi.BackendDevice"), found);
    }

    @Test
    void theSignatureScanFindsWhatItLooksFor() throws URISyntaxException {
        List<String> found = PublicSignatures.naming(classesDirectory(), DeviceArray.class.getClassLoader(),
                name -> name.equals("dev.quiver.Device") || name.equals("dev.quiver.InvalidArrowException"));
        assertTrue(found.contains("Copies.toDevice(...) takes dev.quiver.Device"), found.toString());
        assertTrue(found.stream().anyMatch(line -> line.startsWith("Devices.") && line.endsWith("returns dev.quiver.Device")), found.toString());
        assertTrue(found.contains("ProviderReport(...) takes dev.quiver.Device"), found.toString());
    }

    /** SPI and backend types are for plugins, internal ones for Quiver's own modules: no application sees them. */
    static boolean notForApplications(String name) {
        return name.startsWith("dev.quiver.spi.") || name.startsWith("dev.quiver.device.") || name.startsWith("dev.quiver.internal.");
    }

    private static Path classesDirectory() throws URISyntaxException {
        return Path.of(DeviceArray.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    @Test
    void theScanSeesEveryPackageAndTheRestrictedCallsOfTheAbiPackage() throws URISyntaxException {
        List<ClassFile> classes = apiClasses();
        Set<String> packages = new TreeSet<>();
        classes.forEach(c -> packages.add(c.packageName()));
        assertTrue(packages.containsAll(Set.of("dev.quiver", "dev.quiver.type", "dev.quiver.stream", "dev.quiver.dlpack",
                "dev.quiver.cai", "dev.quiver.host", "dev.quiver.abi", "dev.quiver.internal", ABI_PACKAGE,
                "dev.quiver.internal.validate", "dev.quiver.internal.copy", "dev.quiver.internal.tensor",
                "dev.quiver.bridge", "dev.quiver.internal.backend", "dev.quiver.internal.events",
                "dev.quiver.internal.pool", "dev.quiver.internal.access", "dev.quiver.plugin", "dev.quiver.memory")), packages.toString());
        List<String> inAbi = RestrictedCalls.outside(classes, "no.such.package").stream()
                .filter(line -> line.startsWith(ABI_PACKAGE + "."))
                .toList();
        assertTrue(inAbi.stream().anyMatch(line -> line.endsWith("calls restricted java.lang.foreign.MemorySegment.reinterpret")), inAbi.toString());
        assertTrue(inAbi.stream().anyMatch(line -> line.endsWith("calls restricted java.lang.foreign.Linker.upcallStub")), inAbi.toString());
        assertTrue(inAbi.stream().anyMatch(line -> line.endsWith("calls restricted java.lang.foreign.Linker.downcallHandle")), inAbi.toString());
    }
}
