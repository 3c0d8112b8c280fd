package dev.quiver.device.ffm;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Which file a code address was loaded from, as Linux's {@code /proc/self/maps} says. Stateless; thread-safe.
 */
final class LibraryFiles {
    private static final Path MAPS = Path.of("/proc/self/maps");

    private LibraryFiles() {}

    /**
     * @param address an address in a loaded library
     * @return the library's file, if the memory map names one for the address
     */
    static Optional<Path> holding(long address) {
        if (!Files.isReadable(MAPS)) {
            return Optional.empty();
        }
        try {
            return holding(address, Files.readAllLines(MAPS));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * @param address an address
     * @param maps    the lines of a memory map: {@code start-end perms offset dev inode path}
     * @return the path of the mapping that holds the address, if it names a file
     */
    static Optional<Path> holding(long address, List<String> maps) {
        for (String line : maps) {
            String[] fields = line.trim().split("\\s+", 6);
            if (fields.length < 6 || !fields[5].startsWith("/")) {
                continue;
            }
            String[] range = fields[0].split("-");
            long start = Long.parseUnsignedLong(range[0], 16);
            long end = Long.parseUnsignedLong(range[1], 16);
            if (Long.compareUnsigned(address, start) >= 0 && Long.compareUnsigned(address, end) < 0) {
                return Optional.of(Path.of(fields[5]));
            }
        }
        return Optional.empty();
    }
}
