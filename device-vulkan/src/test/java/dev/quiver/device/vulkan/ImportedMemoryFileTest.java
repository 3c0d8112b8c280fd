package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceException;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;
import dev.quiver.testkit.PosixFiles;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Memory files that lie to lavapipe, imported as another process's {@code VULKAN_FD} memory would be: Mesa's import
 * maps what the file's header says, not what the file holds, and the exporter can rewrite the header at any time.
 * A sealed 8 KiB file whose header (copied from a real export, so that the driver takes it) says 1 GiB at offset
 * 1 MiB must be refused before the driver reads it; one rewritten to say so just after that check must be refused
 * by what the driver mapped, before anything reads it; a header rewritten while the memory is imported must not
 * change what freeing it unmaps; and a read of a page past a file's end is an exception, not the end of the JVM.
 */
@ExtendWith(NoValidationMessages.class)
class ImportedMemoryFileTest {
    private static final long LIE_SIZE = 1L << 30;
    private static final long LIE_OFFSET = 1L << 20;
    private static final long FILE = 8192;
    private static final long DATA = 4096;

    private final VulkanDevice device = Lavapipe.device();

    @Test
    void aHeaderThatMapsPastItsFileIsRefusedBeforeTheDriverReadsItNamingBothSizes() throws Throwable {
        String refusal = refusal(LIE_SIZE, LIE_OFFSET, DATA);
        assertTrue(refusal.contains("header says 1073741824 bytes with the memory at offset 1048576, but the file has 8192 bytes"), refusal);
        refusal = refusal(FILE, FILE + 8, DATA);
        assertTrue(refusal.contains("header says 8192 bytes with the memory at offset 8200, which leaves no bytes for an allocation of 4096"),
                refusal);
        refusal = refusal(FILE, DATA + 8, DATA);
        assertTrue(refusal.contains("which leaves 4088 bytes for an allocation of 4096 bytes (the file has 8192)"), refusal);
    }

    private String refusal(long size, long offset, long allocation) throws Throwable {
        int fd = forged(size, offset);
        try {
            return assertThrows(IllegalArgumentException.class, () -> device.openMemory(handle(fd, allocation))).getMessage();
        } finally {
            PosixFiles.close(fd);
        }
    }

    @Test
    void aHeaderRewrittenJustAfterTheCheckIsRefusedByWhatTheDriverMappedBeforeAnyRead() throws Throwable {
        int fd = forged(FILE, DATA);
        try {
            byte[] lie = MemoryFiles.header(LIE_SIZE, LIE_OFFSET, lavapipeHeader());
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> device.openMemory(handle(fd, DATA), checked -> rewrite(fd, lie)));
            assertTrue(refused.getMessage().contains("the driver mapped the 4096-byte allocation of the descriptor at bytes 1048576 to "
                    + "1052672 of its memory file, which has 8192 bytes"), refused.getMessage());
            assertEquals(0, mappingsOfSize(LIE_SIZE), "freeing the refused memory unmapped what the driver mapped");
        } finally {
            PosixFiles.close(fd);
        }
    }

    @Test
    void anHonestFileIsReadAtItsHeadersOffsetAndAHeaderRewrittenMeanwhileDoesNotChangeWhatFreeingUnmaps() throws Throwable {
        int fd = forged(FILE, DATA);
        byte[] written = {1, 2, 3, 4, 5, 6, 7, 8};
        MemoryFiles.write(fd, DATA, written);
        try (Arena arena = Arena.ofConfined()) {
            ImportedMemory opened = device.openMemory(handle(fd, DATA));
            MemorySegment back = arena.allocate(written.length);
            device.copyToHost(opened.pointer(), 0, back, device.defaultStream());
            assertArrayEquals(written, back.toArray(JAVA_BYTE), "the bytes at the header's offset");
            rewrite(fd, MemoryFiles.header(LIE_SIZE, LIE_OFFSET, lavapipeHeader()));
            MemoryFiles.write(fd, DATA - 8, new byte[] {0, 0, 0, 0, 0, 0, 0, 0x10});   // Mesa's copy of the offset, before the data
            opened.close();
            assertEquals(0, mappingsOfSize(FILE), "the driver's mapping is gone");
            assertTrue(FileMapping.holding(back.address()) != null, "and nothing else went with it");
        } finally {
            PosixFiles.close(fd);
        }
    }

    @Test
    void aReadOfAPagePastItsFilesEndIsADeviceExceptionNotTheEndOfTheProcess() throws Throwable {
        int fd = MemoryFiles.sealed(4096);
        MemorySegment mapping = MemoryFiles.map(fd, 8192);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment into = arena.allocate(64);
            ForeignCopy.copy(mapping.asSlice(0, 64), into, "the first page");
            DeviceException fault = assertThrows(DeviceException.class,
                    () -> ForeignCopy.copy(mapping.asSlice(4096, 64), into, "the second page"));
            assertTrue(fault.getMessage().contains("a copy of 64 bytes at the second page faulted"), fault.getMessage());
        } finally {
            MemoryFiles.unmap(mapping);
            PosixFiles.close(fd);
        }
    }

    /** {@return a sealed 8 KiB memory file with a lavapipe header of {@code size} and {@code offset}} */
    private int forged(long size, long offset) throws Throwable {
        int fd = MemoryFiles.sealed(FILE);
        MemoryFiles.write(fd, 0, MemoryFiles.header(size, offset, lavapipeHeader()));
        if (offset <= FILE) {
            MemoryFiles.write(fd, offset - 8, MemorySegment.ofArray(new long[] {offset}).toArray(JAVA_BYTE));   // Mesa's copy of the offset
        }
        return fd;
    }

    private static IpcMemoryHandle handle(int fd, long allocationSize) {
        return new IpcMemoryHandle(IpcMechanism.VULKAN_FD, new byte[0], fd, 0, allocationSize);
    }

    private static void rewrite(int fd, byte[] header) {
        try {
            MemoryFiles.write(fd, 0, header);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    /** {@return the header of a real export of lavapipe memory, which the driver takes for its own} */
    private byte[] lavapipeHeader() throws Throwable {
        MemorySegment buffer = device.allocate(64, 64);
        IpcMemoryHandle export = device.exportMemory(buffer, 0);
        try {
            return MemoryFiles.read(export.fileDescriptor(), 0, MemoryFileHeader.BYTES);
        } finally {
            PosixFiles.close(export.fileDescriptor());
            device.free(buffer);
        }
    }

    /** {@return how many mappings of exactly {@code size} bytes of a memory file this process has} */
    private static long mappingsOfSize(long size) throws Exception {
        return java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/self/maps")).stream()
                .filter(line -> line.contains("/memfd:quiver-test-memory"))
                .map(FileMapping::parse).filter(m -> m.end() - m.start() == size).count();
    }
}
