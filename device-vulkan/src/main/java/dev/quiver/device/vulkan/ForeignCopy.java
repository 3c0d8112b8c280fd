package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceException;

import java.lang.foreign.MemorySegment;

/**
 * Copies of mapped memory that another process exported, contained: the JDK's own copy, whose fault on a page that
 * cannot be read (a page of a memory file past its end, {@code SIGBUS}) the JVM reports as an {@link InternalError}
 * ("a fault occurred in an unsafe memory access operation") in the copying thread, turned here into a
 * {@link DeviceException} naming the memory. The C library's {@code memcpy} is never used for such memory: a fault
 * inside a native call ends the process. The checks of {@link ImportedFile} keep such a fault from happening on
 * memory files; this is what remains where no check reaches. Stateless; thread-safe.
 */
final class ForeignCopy {
    private ForeignCopy() {}

    /**
     * Copies all of {@code from} to the start of {@code to}.
     *
     * @param from the bytes to copy
     * @param to   where they go, at least as large as {@code from}
     * @param what the foreign side of the copy, as the exception names it
     * @throws DeviceException if a page of either faulted; what was copied before the fault stays copied
     */
    static void copy(MemorySegment from, MemorySegment to, String what) {
        try {
            MemorySegment.copy(from, 0, to, 0, from.byteSize());
        } catch (InternalError fault) {
            throw new DeviceException("a copy of " + from.byteSize() + " bytes at " + what + " faulted (" + fault.getMessage()
                    + "): the exporting process's file does not hold all of the memory its driver mapped", fault);
        }
    }
}
