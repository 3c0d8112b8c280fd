package dev.quiver.internal.abi;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Reads and writes at raw host addresses, for the hot paths of import, validation and export, which walk C
 * struct trees node by node: no segment is made per node, so nothing is allocated. Every address is the
 * caller's to vouch for, as with {@link Pointers}: readable (and writable, for writes) for the bytes
 * accessed and alive while they are; pointers from an untrusted producer are checked against the process's
 * mappings before they come here. Accesses need no alignment. Stateless; safe from any thread.
 */
public final class RawMemory {
    /** Every address of the process, as one segment; offsets into it are addresses. */
    private static final MemorySegment ALL = MemorySegment.NULL.reinterpret(Long.MAX_VALUE);
    private static final ValueLayout.OfLong LITTLE_ENDIAN_LONG = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private RawMemory() {}

    /** @return the 64-bit integer at {@code address} */
    public static long getLong(long address) {
        return ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, address);
    }

    /** @return the 8 bytes at {@code address} as a little-endian integer (the byte at {@code address} lowest) */
    public static long getLongLittleEndian(long address) {
        return ALL.get(LITTLE_ENDIAN_LONG, address);
    }

    /** Writes a 64-bit integer at {@code address}. */
    public static void setLong(long address, long value) {
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, address, value);
    }

    /** @return the 32-bit integer at {@code address} */
    public static int getInt(long address) {
        return ALL.get(ValueLayout.JAVA_INT_UNALIGNED, address);
    }

    /** Writes a 32-bit integer at {@code address}. */
    public static void setInt(long address, int value) {
        ALL.set(ValueLayout.JAVA_INT_UNALIGNED, address, value);
    }

    /** @return the byte at {@code address} */
    public static byte getByte(long address) {
        return ALL.get(ValueLayout.JAVA_BYTE, address);
    }

    /** @return the pointer at {@code address}, as an address (0 for NULL) */
    public static long getAddress(long address) {
        return ALL.get(ValueLayout.JAVA_LONG_UNALIGNED, address);
    }

    /** Writes a pointer at {@code address}. */
    public static void setAddress(long address, long pointer) {
        ALL.set(ValueLayout.JAVA_LONG_UNALIGNED, address, pointer);
    }

    /** Copies {@code bytes} bytes between non-overlapping native ranges. */
    public static void copy(long from, long to, long bytes) {
        MemorySegment.copy(ALL, from, ALL, to, bytes);
    }

    /**
     * Copies a small struct word by word, cheaper than a bulk copy at the sizes of C Data Interface structs.
     *
     * @param from  where the struct is
     * @param to    where it goes (not overlapping)
     * @param bytes its size, a multiple of 8
     */
    public static void copyWords(long from, long to, long bytes) {
        for (long at = 0; at < bytes; at += Long.BYTES) {
            setLong(to + at, getLong(from + at));
        }
    }

    /** Copies {@code length} bytes of a Java array to native memory. */
    public static void copy(byte[] from, int offset, long to, int length) {
        MemorySegment.copy(from, offset, ALL, ValueLayout.JAVA_BYTE, to, length);
    }

    /** Copies {@code length} bytes of native memory into a Java array. */
    public static void copy(long from, byte[] to, int offset, int length) {
        MemorySegment.copy(ALL, ValueLayout.JAVA_BYTE, from, to, offset, length);
    }

    /** Sets {@code bytes} bytes at {@code address} to zero, word by word where it can. */
    public static void zero(long address, long bytes) {
        long at = 0;
        for (; at + Long.BYTES <= bytes; at += Long.BYTES) {
            setLong(address + at, 0);
        }
        for (; at < bytes; at++) {
            ALL.set(ValueLayout.JAVA_BYTE, address + at, (byte) 0);
        }
    }
}
