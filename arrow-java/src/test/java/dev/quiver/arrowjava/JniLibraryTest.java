package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.abi.ArrowArrayLayout;
import org.apache.arrow.c.Data;
import org.apache.arrow.c.jni.JniLoader;
import org.apache.arrow.vector.IntVector;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Arrow Java's C Data module is JNI: its native library ships inside the arrow-c-data jar. This proves the
 * Linux x86-64 build is there, that it loads into this JVM, and that the release callback of an Arrow Java
 * export (which Quiver calls when it closes the DeviceArray) is code of that library.
 */
class JniLibraryTest extends LeakChecks {

    @Test
    void theLinuxLibraryShipsInsideTheArrowCDataJar() {
        URL library = Data.class.getResource("/arrow_cdata_jni/x86_64/libarrow_cdata_jni.so");
        assertNotNull(library, "arrow-c-data carries no linux x86_64 library");
        String jar = Data.class.getProtectionDomain().getCodeSource().getLocation().toString();
        assertTrue(library.toString().startsWith("jar:" + jar + "!"), library + " comes from " + jar);
        assertTrue(jar.contains("arrow-c-data-19."), jar);
    }

    @Test
    void itLoadsAndOwnsTheReleaseCallbackQuiverCalls() throws IOException {
        JniLoader.get().ensureLoaded();
        List<long[]> ranges = Files.readAllLines(Path.of("/proc/self/maps")).stream()
                .filter(line -> line.contains("jnilib-") || line.contains("arrow_cdata_jni"))
                .map(line -> line.substring(0, line.indexOf(' ')).split("-"))
                .map(bounds -> new long[] {Long.parseUnsignedLong(bounds[0], 16), Long.parseUnsignedLong(bounds[1], 16)})
                .toList();
        assertTrue(!ranges.isEmpty(), "the JNI library is mapped into this process");
        try (IntVector vector = new IntVector("v", allocator)) {
            vector.allocateNew(1);
            vector.set(0, 5);
            vector.setValueCount(1);
            try (DeviceArray array = VectorExport.toDeviceArray(vector, allocator)) {
                long release = Interchange.arrowArray(array).get(ADDRESS, ArrowArrayLayout.RELEASE).address();
                assertTrue(ranges.stream().anyMatch(r -> Long.compareUnsigned(release, r[0]) >= 0 && Long.compareUnsigned(release, r[1]) < 0),
                        "release callback 0x" + Long.toHexString(release) + " lies in the JNI library");
            }
        }
    }
}
