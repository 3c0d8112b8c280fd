package dev.quiver.device.vulkan;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Reading a library's path from the process's file mappings, on sample lines and on this process. */
class MappedLibrariesTest {
    private static final String VULKAN = "7f1c2a000000-7f1c2a020000 r--p 00000000 08:01 1234 /usr/lib/x86_64-linux-gnu/libvulkan.so.1.3.239";

    @Test
    void theVersionedFileOfASonameIsFound() {
        List<String> maps = List.of(
                "55d0c0000000-55d0c0001000 r--p 00000000 08:01 42 /usr/lib/jvm/bin/java",
                VULKAN,
                "7f1c2a020000-7f1c2a080000 r-xp 00020000 08:01 1234 /usr/lib/x86_64-linux-gnu/libvulkan.so.1.3.239",
                "7f1c2b000000-7f1c2b001000 rw-p 00000000 00:00 0 ",
                "7ffd00000000-7ffd00021000 rw-p 00000000 00:00 0 [stack]");
        assertEquals(Optional.of(Path.of("/usr/lib/x86_64-linux-gnu/libvulkan.so.1.3.239")), MappedLibraries.find("libvulkan.so.1", maps));
    }

    @Test
    void aPathWithSpacesIsKeptWhole() {
        List<String> maps = List.of("7f00-7f01 r--p 00000000 08:01 9 /opt/my vulkan/libvulkan.so.1");
        assertEquals(Optional.of(Path.of("/opt/my vulkan/libvulkan.so.1")), MappedLibraries.find("libvulkan.so.1", maps));
    }

    @Test
    void nothingIsFoundWhenAbsentAmbiguousDeletedOrOnlyAPrefix() {
        assertEquals(Optional.empty(), MappedLibraries.find("libvulkan.so.1", List.of()));
        assertEquals(Optional.empty(), MappedLibraries.find("libvulkan.so.1",
                List.of(VULKAN, "7f00-7f01 r--p 00000000 08:01 7 /opt/sdk/lib/libvulkan.so.1.4.0")), "two different files");
        assertEquals(Optional.empty(), MappedLibraries.find("libvulkan.so.1",
                List.of("7f00-7f01 r--p 00000000 08:01 7 /tmp/libvulkan.so.1 (deleted)")), "a deleted file");
        assertEquals(Optional.empty(), MappedLibraries.find("libvulkan.so.1",
                List.of("7f00-7f01 r--p 00000000 08:01 7 /usr/lib/libvulkan.so.10")), "another soname");
    }

    @Test
    void thisProcessShowsTheJvmItself() throws Exception {
        // libjvm.so is mapped in every HotSpot process on Linux
        Optional<Path> jvm = MappedLibraries.find("libjvm.so");
        assertTrue(jvm.isPresent(), "libjvm.so among this process's mappings");
        assertTrue(Files.isRegularFile(jvm.get()) && jvm.get().isAbsolute(), jvm.toString());
    }
}
