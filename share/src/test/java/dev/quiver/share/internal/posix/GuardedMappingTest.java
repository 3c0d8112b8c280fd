package dev.quiver.share.internal.posix;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A receiver's mapping of a memory file ({@link Memfd#mapPrivate}) is followed by at least
 * {@link Memfd#GUARD_BYTES} of address space nobody can read, as {@code /proc/self/maps} shows, and
 * {@link Memfd#unmapPrivate} gives back both.
 */
class GuardedMappingTest {

    @Test
    void aPrivateMappingHasAnInaccessibleGuardAfterItsLastPage() throws IOException {
        for (long size : new long[] {1, 100, 4096, 4097, 70_000}) {
            int fd = Memfd.create("quiver-guard-test", size);
            MemorySegment mapping;
            try {
                mapping = Memfd.mapPrivate(fd, size);
            } finally {
                Memfd.close(fd);
            }
            long start = mapping.address();
            long[] file = range(start).orElseThrow(() -> new AssertionError("no mapping at " + Long.toHexString(start)));
            assertTrue(file[1] - start >= size, size + " bytes: the file's pages are mapped");
            long[] guard = range(file[1]).orElseThrow(() -> new AssertionError(size + " bytes: nothing mapped after the file's pages"));
            assertEquals(0, guard[2], size + " bytes: the guard can be neither read nor written");
            assertTrue(guard[1] - start >= size + Memfd.GUARD_BYTES, size + " bytes: the guard reaches " + Memfd.GUARD_BYTES
                    + " bytes past the file's end");
            Memfd.unmapPrivate(mapping);
            assertEquals(Optional.empty(), range(start), size + " bytes: unmapped");
            assertEquals(Optional.empty(), range(file[1]), size + " bytes: its guard unmapped too");
        }
    }

    /** {@return start, end and whether readable (1) or not (0) of the mapping that starts at {@code start}} */
    private static Optional<long[]> range(long start) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/maps"));
        for (String line : lines) {
            String[] fields = line.split("\\s+");
            String[] bounds = fields[0].split("-");
            if (HexFormat.fromHexDigitsToLong(bounds[0]) == start) {
                return Optional.of(new long[] {start, HexFormat.fromHexDigitsToLong(bounds[1]), fields[1].charAt(0) == 'r' ? 1 : 0});
            }
        }
        return Optional.empty();
    }
}
