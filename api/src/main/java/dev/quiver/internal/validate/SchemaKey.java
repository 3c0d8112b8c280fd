package dev.quiver.internal.validate;

import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.RawMemory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * Writes everything {@link SchemaReader} reads from an ArrowSchema tree, as bytes: per node the flags, the
 * format and name strings, the encoded metadata, the children and the dictionary. Two trees with the same
 * key are read into equal fields, so the key can name a parsed field in {@link SchemaCache}. A NULL name is
 * written as an empty one, as the reader reads it.
 *
 * <p>The walk checks what it follows as the reader does (alignment, and readability through the sink's
 * {@link Faults#readableBytes}), but reports nothing: on anything the reader would report, or anything out
 * of the ordinary (deep nesting, long strings, many children, a key longer than the buffer), it gives up,
 * and the caller parses the schema instead. Stateless; safe from any thread.
 */
final class SchemaKey {
    /** The walk gave up: the schema needs the reader. */
    static final int UNUSUAL = -1;
    /** The key does not fit the buffer given. */
    static final int FULL = -2;

    private static final long NODE = SchemaReader.STRUCT_SIZE;
    // smaller than the reader's limits on purpose: past them the key gives up and the reader decides
    private static final int MAX_STRING = 4096;
    private static final int MAX_CHILDREN = 1 << 16;
    private static final long KNOWN_FLAGS = SchemaReader.KNOWN_FLAGS;
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INTS = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private SchemaKey() {}

    /**
     * @param schema the address of a live ArrowSchema the caller has checked is readable
     * @param faults says which other addresses may be read
     * @param out    where the key goes
     * @return the key's length, {@link #UNUSUAL} or {@link #FULL}
     */
    static int write(long schema, Faults faults, byte[] out) {
        return node(schema, 0, out, 0, faults);
    }

    /** @return a hash of {@code key[0, length)} */
    static int hash(byte[] key, int length) {
        long h = length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            h = (h ^ (long) LONGS.get(key, i)) * 0x9E3779B97F4A7C15L;
        }
        for (; i < length; i++) {
            h = (h ^ key[i]) * 0x9E3779B97F4A7C15L;
        }
        return (int) (h ^ (h >>> 32));
    }

    private static int node(long schema, int depth, byte[] out, int at, Faults faults) {
        if (depth > SchemaReader.MAX_DEPTH || RawMemory.getAddress(schema + ArrowSchemaLayout.RELEASE) == 0) {
            return UNUSUAL;
        }
        long flags = RawMemory.getLong(schema + ArrowSchemaLayout.FLAGS);
        long n = RawMemory.getLong(schema + ArrowSchemaLayout.N_CHILDREN);
        long format = RawMemory.getAddress(schema + ArrowSchemaLayout.FORMAT);
        if ((flags & ~KNOWN_FLAGS) != 0 || n < 0 || n > MAX_CHILDREN || format == 0 || at + 17 > out.length) {
            return at + 17 > out.length ? FULL : UNUSUAL;
        }
        LONGS.set(out, at, flags);
        LONGS.set(out, at + 8, n);
        at += 16;
        at = string(format, out, at, faults);
        long name = RawMemory.getAddress(schema + ArrowSchemaLayout.NAME);
        if (at >= 0 && name == 0) {
            at = emptyString(out, at);
        } else if (at >= 0) {
            at = string(name, out, at, faults);
        }
        if (at >= 0) {
            at = metadata(RawMemory.getAddress(schema + ArrowSchemaLayout.METADATA), out, at, faults);
        }
        long children = RawMemory.getAddress(schema + ArrowSchemaLayout.CHILDREN);
        if (at >= 0 && n > 0 && !readableStruct(children, n * Long.BYTES, faults)) {
            return UNUSUAL;
        }
        for (long i = 0; at >= 0 && i < n; i++) {
            long child = RawMemory.getAddress(children + i * Long.BYTES);
            at = readableStruct(child, NODE, faults) ? node(child, depth + 1, out, at, faults) : UNUSUAL;
        }
        if (at < 0) {
            return at;
        }
        long dictionary = RawMemory.getAddress(schema + ArrowSchemaLayout.DICTIONARY);
        if (at + 1 > out.length) {
            return FULL;
        }
        out[at++] = (byte) (dictionary == 0 ? 0 : 1);
        if (dictionary == 0) {
            return at;
        }
        return readableStruct(dictionary, NODE, faults) ? node(dictionary, depth + 1, out, at, faults) : UNUSUAL;
    }

    private static boolean readableStruct(long pointer, long size, Faults faults) {
        return pointer != 0 && pointer % Long.BYTES == 0 && faults.canRead(pointer, size);
    }

    /** Writes the NUL-terminated string at {@code pointer} as its length and bytes. */
    private static int string(long pointer, byte[] out, int at, Faults faults) {
        long length = terminator(pointer, Math.min(faults.readableBytes(pointer, MAX_STRING + 1L), MAX_STRING + 1L));
        if (length < 0 || length > MAX_STRING) {
            return UNUSUAL;
        }
        int start = at + 4;
        if (start + length > out.length) {
            return FULL;
        }
        INTS.set(out, at, (int) length);
        if (length < 16) {
            for (int i = 0; i < length; i++) {
                out[start + i] = RawMemory.getByte(pointer + i);
            }
        } else {
            RawMemory.copy(pointer, out, start, (int) length);
        }
        return start + (int) length;
    }

    /**
     * Finds the NUL that ends the string at {@code pointer}, eight bytes at a time. Reads whole aligned
     * words only, which never cross a page: a word is read only if its first byte at or after
     * {@code pointer} lies within {@code limit}.
     *
     * @return the string's length, or -1 if no NUL lies within {@code limit} bytes
     */
    private static long terminator(long pointer, long limit) {
        if (limit <= 0) {
            return -1;
        }
        long word = pointer & -Long.BYTES;
        int skip = (int) (pointer - word);
        // the bytes before the string read as 0xFF, never as a terminator
        long bytes = RawMemory.getLongLittleEndian(word) | ((1L << (skip << 3)) - 1);
        long first = -skip;
        while (true) {
            long zeros = (bytes - 0x0101010101010101L) & ~bytes & 0x8080808080808080L;
            if (zeros != 0) {
                long at = first + (Long.numberOfTrailingZeros(zeros) >>> 3);
                return at < limit ? at : -1;
            }
            first += Long.BYTES;
            word += Long.BYTES;
            if (first >= limit) {
                return -1;
            }
            bytes = RawMemory.getLongLittleEndian(word);
        }
    }

    private static int emptyString(byte[] out, int at) {
        if (at + 4 > out.length) {
            return FULL;
        }
        INTS.set(out, at, 0);
        return at + 4;
    }

    /** Writes encoded metadata (int32 count, then int32 length and bytes per key and value) as its length and bytes; NULL as -1. */
    private static int metadata(long pointer, byte[] out, int at, Faults faults) {
        if (at + 4 > out.length) {
            return FULL;
        }
        if (pointer == 0) {
            INTS.set(out, at, -1);
            return at + 4;
        }
        long readable = faults.readableBytes(pointer, out.length);
        if (readable < 4) {
            return UNUSUAL;
        }
        int count = RawMemory.getInt(pointer);
        if (count < 0 || count > MAX_CHILDREN) {
            return UNUSUAL;
        }
        long end = 4;
        for (int i = 0; i < 2 * count; i++) {
            if (end + 4 > readable) {
                return readable == out.length ? FULL : UNUSUAL;
            }
            int length = RawMemory.getInt(pointer + end);
            if (length < 0 || length > MAX_STRING) {
                return UNUSUAL;
            }
            end += 4 + length;
        }
        if (end > readable) {
            return readable == out.length ? FULL : UNUSUAL;
        }
        if (at + 4 + end > out.length) {
            return FULL;
        }
        INTS.set(out, at, (int) end);
        RawMemory.copy(pointer, out, at + 4, (int) end);
        return at + 4 + (int) end;
    }
}
