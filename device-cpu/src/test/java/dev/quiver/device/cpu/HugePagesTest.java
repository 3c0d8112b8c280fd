package dev.quiver.device.cpu;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Large host allocations sit on transparent huge pages where Linux offers them: from
 * {@link CLibraryHeap#HUGE_PAGES_FROM} bytes an allocation is aligned to 2 MiB and its range carries the kernel's
 * {@code hg} flag (advised with {@code MADV_HUGEPAGE}) in {@code /proc/self/smaps}; a smaller one is neither. The
 * flag says the advice was taken, whether or not the kernel found free huge pages at the first touch (and
 * whatever its setting: {@code never} ignores the flag). Elsewhere than Linux nothing is advised.
 */
class HugePagesTest {
    private final CLibraryHeap heap = CLibraryHeap.bound();

    @Test
    void aLargeAllocationIsAlignedAndAdvisedOntoHugePages() throws IOException {
        boolean linux = System.getProperty("os.name").startsWith("Linux");
        // a kernel built without transparent huge pages has no such file and ignores the advice
        boolean kernelHasThem = Files.exists(Path.of("/sys/kernel/mm/transparent_hugepage/enabled"));
        MemorySegment large = heap.allocate(CLibraryHeap.HUGE_PAGES_FROM, 64);
        MemorySegment small = heap.allocate(CLibraryHeap.HUGE_PAGES_FROM / 2, 64);
        try {
            assertEquals(0, large.address() % (linux ? 2 << 20 : 64), "a large allocation starts on a 2 MiB boundary on Linux");
            large.fill((byte) 1);
            if (linux) {
                assertEquals(kernelHasThem, vmFlags(large.address()).contains(" hg"),
                        "the large range is advised onto huge pages where the kernel has them: " + vmFlags(large.address()));
                assertFalse(vmFlags(small.address()).contains(" hg"), "a smaller one is left as it was: " + vmFlags(small.address()));
            }
        } finally {
            heap.free(large);
            heap.free(small);
        }
    }

    /** {@return the VmFlags line of the mapping in /proc/self/smaps that holds {@code address}} */
    private static String vmFlags(long address) throws IOException {
        List<String> lines = Files.readAllLines(Path.of("/proc/self/smaps"));
        boolean inside = false;
        for (String line : lines) {
            if (line.matches("^[0-9a-f]+-[0-9a-f]+ .*")) {
                String[] range = line.substring(0, line.indexOf(' ')).split("-");
                inside = Long.compareUnsigned(Long.parseUnsignedLong(range[0], 16), address) <= 0
                        && Long.compareUnsigned(address, Long.parseUnsignedLong(range[1], 16)) < 0;
            } else if (inside && line.startsWith("VmFlags:")) {
                return line;
            }
        }
        throw new AssertionError("no mapping in /proc/self/smaps holds 0x" + Long.toHexString(address));
    }
}
