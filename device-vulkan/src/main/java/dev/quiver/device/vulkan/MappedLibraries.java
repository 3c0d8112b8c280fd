package dev.quiver.device.vulkan;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Finds where a shared library this process has loaded lives, from the file mappings the kernel lists in
 * {@code /proc/self/maps}: no native call, and no walk of the dynamic loader's list (which is what
 * {@code dl_iterate_phdr} would do). Linux only; elsewhere nothing is found. Stateless; thread-safe.
 */
final class MappedLibraries {
    private static final Path MAPS = Path.of("/proc/self/maps");
    private static final String DELETED = " (deleted)";

    private MappedLibraries() {}

    /**
     * @param soname a library's name as the dynamic loader is asked for it, for example {@code libvulkan.so.1}
     * @return the absolute path of the one mapped file of that name, or of a name that extends it with a
     *         version ({@code libvulkan.so.1.3.239}); empty if none is mapped, if several different files
     *         are, or if the mappings cannot be read
     */
    static Optional<Path> find(String soname) {
        List<String> lines;
        try {
            lines = Files.readAllLines(MAPS);
        } catch (IOException | SecurityException e) {
            return Optional.empty();
        }
        return find(soname, lines);
    }

    /**
     * @param soname a library's name, as {@link #find(String)} takes it
     * @param maps   the lines of a {@code /proc/<pid>/maps} file
     * @return what {@link #find(String)} returns for those mappings, without checking that the file exists
     */
    static Optional<Path> find(String soname, List<String> maps) {
        Set<String> found = new LinkedHashSet<>();
        for (String line : maps) {
            // address, permissions, offset, device, inode, then the path, which may hold spaces
            String[] fields = line.strip().split("\\s+", 6);
            if (fields.length < 6 || !fields[5].startsWith("/") || fields[5].endsWith(DELETED)) {
                continue;
            }
            String file = fields[5];
            String name = file.substring(file.lastIndexOf('/') + 1);
            if (name.equals(soname) || name.startsWith(soname + ".")) {
                found.add(file);
            }
        }
        return found.size() == 1 ? Optional.of(Path.of(found.iterator().next())) : Optional.empty();
    }
}
