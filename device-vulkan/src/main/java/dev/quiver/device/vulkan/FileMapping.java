package dev.quiver.device.vulkan;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * One mapping of this process as {@code /proc/self/maps} lists it ({@code start-end perms offset major:minor
 * inode [name]}): which file it maps and from which offset of that file. What the driver made of an imported
 * descriptor is found by the address it returned: the mapping that holds it. (The api module's reader of the same
 * listing keeps readable ranges only, merged, without the files behind them, and this module does not depend on
 * it.) Immutable; thread-safe.
 *
 * @param start      the first address
 * @param end        the address after the last
 * @param fileOffset the offset in the file of {@code start}
 * @param major      the major number of the file's device
 * @param minor      its minor number
 * @param inode      the file's inode number, 0 for anonymous memory
 */
record FileMapping(long start, long end, long fileOffset, long major, long minor, long inode) {
    private static final Path MAPS = Path.of("/proc/self/maps");

    /**
     * {@return the mapping that holds {@code address}, or null if none does}
     * @param address a host address
     * @throws UncheckedIOException if the listing cannot be read
     */
    static FileMapping holding(long address) {
        try (BufferedReader lines = Files.newBufferedReader(MAPS, StandardCharsets.US_ASCII)) {
            for (String line = lines.readLine(); line != null; line = lines.readLine()) {
                FileMapping mapping = parse(line);
                if (Long.compareUnsigned(address, mapping.start) >= 0 && Long.compareUnsigned(address, mapping.end) < 0) {
                    return mapping;
                }
            }
            return null;
        } catch (IOException e) {
            throw new UncheckedIOException("reading " + MAPS, e);
        }
    }

    /** Parses one line of the listing. */
    static FileMapping parse(String line) {
        String[] fields = line.trim().split(" +", 6);
        String[] range = fields[0].split("-");
        String[] device = fields[3].split(":");
        return new FileMapping(Long.parseUnsignedLong(range[0], 16), Long.parseUnsignedLong(range[1], 16),
                Long.parseUnsignedLong(fields[2], 16), Long.parseLong(device[0], 16), Long.parseLong(device[1], 16),
                Long.parseLong(fields[4]));
    }

    /**
     * {@return whether this maps the file of {@code fstat}'s {@code st_dev} and {@code st_ino}}
     * @param dev the device number as the C library encodes it ({@code makedev})
     * @param ino the inode number
     */
    boolean maps(long dev, long ino) {
        long devMajor = ((dev & 0x00000000000fff00L) >>> 8) | ((dev & 0xfffff00000000000L) >>> 32);   // glibc's gnu_dev_major
        long devMinor = (dev & 0xffL) | ((dev & 0x00000ffffff00000L) >>> 12);                         // and gnu_dev_minor
        return inode == ino && major == devMajor && minor == devMinor;
    }

    /** {@return the offset in the file of {@code address}, which lies in this mapping or at its end} */
    long fileOffsetOf(long address) {
        return fileOffset + (address - start);
    }
}
