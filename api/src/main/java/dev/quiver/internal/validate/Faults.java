package dev.quiver.internal.validate;

import dev.quiver.InvalidArrowException;
import dev.quiver.check.Rule;

import java.lang.foreign.MemorySegment;

/**
 * Where the validators send what they find. Import uses {@link #THROW}, which stops at the first fault
 * with an {@link InvalidArrowException} and trusts every pointer; the conformance checker uses a sink that
 * records every fault, returns, and checks pointers against the process's memory map before anything is
 * read. After reporting, a validator skips only what depends on the faulty member and goes on.
 */
public interface Faults {

    /** Throws {@link InvalidArrowException} at the first fault; trusts pointers. */
    Faults THROW = (rule, path, message) -> {
        throw new InvalidArrowException(path, message);
    };

    /**
     * Reports a broken rule.
     *
     * @param rule    the rule
     * @param path    the field path, for example {@code children[1].buffers[2]}
     * @param message what is wrong, naming the values
     */
    void report(Rule rule, String path, String message);

    /**
     * @param pointer an address the validator is about to read
     * @param max     how many bytes it would like to read
     * @return how many bytes from {@code pointer}, up to {@code max}, may be read; {@code max} when
     *         pointers are trusted
     */
    default long readableBytes(MemorySegment pointer, long max) {
        return max;
    }

    /**
     * @param pointer an address the validator is about to read
     * @param bytes   how many bytes
     * @param path    the field path of the pointer, for the report
     * @return true if they may be read; otherwise reports {@link Rule#POINTER_UNREADABLE} and returns false
     */
    default boolean readable(MemorySegment pointer, long bytes, String path) {
        if (readableBytes(pointer, bytes) >= bytes) {
            return true;
        }
        report(Rule.POINTER_UNREADABLE, path, "points to 0x" + Long.toHexString(pointer.address())
                + ", which is not readable host memory (" + bytes + (bytes == 1 ? " byte" : " bytes") + " needed)");
        return false;
    }
}
