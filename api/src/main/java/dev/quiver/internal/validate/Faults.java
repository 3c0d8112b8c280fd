package dev.quiver.internal.validate;

import dev.quiver.internal.abi.ReadableMemory;
import dev.quiver.internal.abi.ReadableRanges;

import java.lang.foreign.MemorySegment;
import java.util.function.BiFunction;
import java.util.function.ToLongFunction;

/**
 * Where the validators send what they find. Import uses {@link #throwing}, which stops at the first fault
 * with the caller's exception and trusts every pointer; a conformance checker uses a sink that records every
 * fault, returns, and checks pointers against the process's memory map before anything is read. After
 * reporting, a validator skips only what depends on the faulty member and goes on. A sink is used by one
 * validation at a time, on the validating thread, unless its implementation says otherwise.
 */
public interface Faults extends ReadableRanges {

    /**
     * @param invalid makes the exception to throw from a field path and a rule
     * @return a sink that throws at the first fault and trusts pointers
     */
    static Faults throwing(BiFunction<String, String, ? extends RuntimeException> invalid) {
        return new ThrowingFaults(invalid, false);
    }

    /**
     * @param invalid makes the exception to throw from a field path and a rule
     * @return a sink that throws at the first fault and checks every pointer against the process's
     *         readable mappings ({@link ReadableMemory}) before anything is read through it; for one
     *         validation (it remembers the pages the kernel confirmed), on the validating thread
     */
    static Faults checking(BiFunction<String, String, ? extends RuntimeException> invalid) {
        return new ThrowingFaults(invalid, true);
    }

    /**
     * @param invalid  makes the exception to throw from a field path and a rule
     * @param checking whether pointers are checked ({@link #checking}) or trusted ({@link #throwing})
     * @return the sink
     */
    static Faults of(BiFunction<String, String, ? extends RuntimeException> invalid, boolean checking) {
        return checking ? checking(invalid) : throwing(invalid);
    }

    /**
     * Whether the sink ends a validation at the first fault (by throwing). A validator may then look for a
     * fault first without building field paths, and build them only to name the fault it found.
     *
     * @return true for a sink whose {@link #report} never returns
     */
    default boolean stopsAtFirst() {
        return false;
    }

    /**
     * Whether pointers are checked against the process's readable mappings before they are read
     * ({@link #readableBytes} may answer less than asked).
     *
     * @return false only for a sink that trusts every pointer
     */
    default boolean checksPointers() {
        return true;
    }

    /**
     * Reports a fault.
     *
     * @param fault   what kind of fault
     * @param path    the field path, for example {@code children[1].buffers[2]}
     * @param message what is wrong, naming the values
     */
    void report(Fault fault, String path, String message);

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
     * {@link #readableBytes(MemorySegment, long)} for a raw address.
     *
     * @param address an address the validator is about to read
     * @param max     how many bytes it would like to read
     * @return how many bytes from {@code address}, up to {@code max}, may be read
     */
    @Override
    default long readableBytes(long address, long max) {
        return readableBytes(MemorySegment.ofAddress(address), max);
    }

    /**
     * Grows a read of unknown length in steps ({@link ReadableRanges#extend}), asking this sink.
     *
     * @param address the start of the read
     * @param have    how many bytes are already known readable (0 at first)
     * @param limit   the most bytes the read may take
     * @return how many bytes may be read now, at least {@code have}; {@code have} when nothing more may be
     *         read; {@code limit} when pointers are trusted
     */
    @Override
    default long extend(long address, long have, long limit) {
        return checksPointers() ? ReadableRanges.super.extend(address, have, limit) : Math.max(have, limit);
    }

    /**
     * @param pointer an address the validator is about to read
     * @param bytes   exactly how many bytes it will read
     * @return true if they may be read; {@link #readableBytes} decides unless a sink knows better
     */
    default boolean canRead(MemorySegment pointer, long bytes) {
        return canRead(pointer.address(), bytes);
    }

    /**
     * {@link #canRead(MemorySegment, long)} for a raw address.
     *
     * @param address an address the validator is about to read
     * @param bytes   exactly how many bytes it will read
     * @return true if they may be read; {@link #readableBytes} decides unless a sink knows better
     */
    @Override
    default boolean canRead(long address, long bytes) {
        return readableBytes(address, bytes) >= bytes;
    }

    /**
     * Wraps a sink so that ranges starting at a buffer of known size may not run past it.
     *
     * @param inner    the sink that reports, and decides for buffers of unknown size
     * @param capacity the size in bytes of the buffer starting at a pointer, or -1 if unknown
     * @return the sink; threading and lifetime as {@code inner}'s
     */
    static Faults withCapacities(Faults inner, ToLongFunction<MemorySegment> capacity) {
        return CapacityFaults.of(inner, capacity);
    }

    /**
     * @param address a pointer whose range failed {@link #canRead}
     * @param bytes   how many bytes were needed
     * @return why the range may not be read, for a report
     */
    default String unreadableReason(long address, long bytes) {
        return unreadable(address, bytes);
    }

    /**
     * @param pointer an address the validator is about to read
     * @param bytes   how many bytes
     * @param path    the field path of the pointer, for the report
     * @return true if they may be read; otherwise reports {@link Fault#POINTER_UNREADABLE} and returns false
     */
    default boolean readable(MemorySegment pointer, long bytes, String path) {
        return FirstFault.readable(this, pointer.address(), bytes, path);
    }

    /**
     * Checks a pointer to a C struct or to an array of pointers before it is read: aligned for pointer and
     * 64-bit members, and readable for its size.
     *
     * @param pointer the struct's address, not NULL
     * @param size    the struct's size in bytes
     * @param path    the field path of the pointer, for the report
     * @return true if the struct may be read; otherwise reports and returns false
     */
    default boolean struct(MemorySegment pointer, long size, String path) {
        return FirstFault.struct(this, pointer.address(), size, path);
    }

    /**
     * @param address a pointer that is not readable for {@code bytes} bytes
     * @param bytes   how many bytes were needed
     * @return the rule it breaks, for a report
     */
    static String unreadable(long address, long bytes) {
        return "points to 0x" + Long.toHexString(address) + ", which is not readable host memory (" + bytes
                + (bytes == 1 ? " byte" : " bytes") + " needed)";
    }

    /**
     * @param address a struct pointer that is not aligned
     * @return the rule it breaks, for a report
     */
    static String unaligned(long address) {
        return "points to 0x" + Long.toHexString(address) + ", which is not aligned to " + Long.BYTES
                + " bytes as C structs and pointer arrays are";
    }
}
