package dev.quiver.internal.validate;

import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.ExportedSchemas;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Reads imported schemas into fields, remembering the fields of recent schemas by their content: a schema
 * whose {@link SchemaKey} (everything the reader reads, byte for byte) equals that of one read before gets
 * the field read then, without a parse and without allocating. Fields are immutable, so sharing one is
 * safe. Where pointers are trusted, a schema Quiver exported and nobody changed is recognised first
 * ({@link ExportedSchemas}), without a key.
 *
 * <p>What is remembered is checked first: a field parsed on a miss is stored only if writing it back out
 * (as {@link StructWriter#writeSchema} does) gives the same key, so that a producer changing its structs
 * while they are read, or a schema the writer would spell differently, can only cost a miss, never give
 * another schema's field. Schemas the key walk finds unusual (see {@link SchemaKey}), and keys over 64 KiB,
 * always go to the reader, which reports their faults. At most 64 fields are kept (4 MiB of keys at most).
 *
 * <p>Thread-safe: entries are immutable and replaced whole; each thread keys in a buffer of its own and
 * checks the entry it found last before looking in the table.
 */
public final class SchemaCache {
    private static final int ENTRIES = 64;
    private static final int MAX_KEY = 64 * 1024;
    private static final AtomicReferenceArray<Entry> RECENT = new AtomicReferenceArray<>(ENTRIES);
    private static final ThreadLocal<Scratch> SCRATCH = ThreadLocal.withInitial(Scratch::new);
    private static final Faults TRUSTING = Faults.throwing((path, rule) -> new IllegalStateException(path + " " + rule));

    private SchemaCache() {}

    /** A schema read before: its key and field. */
    private record Entry(int hash, byte[] key, Field field) {}

    /** One thread's key buffer, and the entry it found last (checked before any other). */
    private static final class Scratch {
        byte[] key = new byte[1024];
        Entry last;
    }

    /**
     * Reads the schema at {@code schema}, as {@link SchemaReader#read(MemorySegment, String, Faults)} does
     * with path {@code "schema"}.
     *
     * @param schema the address of a live ArrowSchema, readable for its 72 bytes
     * @param faults a sink that stops at the first fault ({@link Faults#stopsAtFirst()}); its
     *               {@link Faults#readableBytes} decides what else may be read
     * @return the field
     */
    public static Field read(long schema, Faults faults) {
        if (!faults.checksPointers()) {
            Field exported = ExportedSchemas.recognise(schema);
            if (exported != null) {
                return exported;
            }
        }
        Scratch scratch = SCRATCH.get();
        byte[] key = scratch.key;
        int length = key(schema, faults, key);
        if (length == SchemaKey.FULL) {
            length = grown(scratch, schema, faults);
            key = scratch.key;
        }
        if (length < 0) {
            return SchemaReader.read(MemorySegment.ofAddress(schema), "schema", faults);
        }
        Entry last = scratch.last;
        if (last != null && last.key.length == length && Arrays.equals(last.key, 0, length, key, 0, length)) {
            return last.field;
        }
        int hash = SchemaKey.hash(key, length);
        Entry recent = RECENT.getPlain(hash & (ENTRIES - 1));
        if (recent != null && recent.hash == hash && Arrays.equals(recent.key, 0, recent.key.length, key, 0, length)) {
            scratch.last = recent;
            return recent.field;
        }
        Field field = SchemaReader.read(MemorySegment.ofAddress(schema), "schema", faults);
        if (field != null && writesBackAs(field, key, length)) {
            Entry entry = new Entry(hash, Arrays.copyOf(key, length), field);
            RECENT.setRelease(hash & (ENTRIES - 1), entry);
            scratch.last = entry;
        }
        return field;
    }

    private static int key(long schema, Faults faults, byte[] key) {
        return SchemaKey.write(schema, faults, key);
    }

    /**
     * Writes the key into ever larger buffers, each kept for this thread, until it fits or the buffer holds
     * {@link #MAX_KEY} bytes (so a thread that meets a schema too wide for a key walks it once per import).
     *
     * @return the key's length in {@code scratch.key}, or {@link SchemaKey#UNUSUAL} if it does not fit
     *         {@link #MAX_KEY} bytes (or the walk gave up)
     */
    private static int grown(Scratch scratch, long schema, Faults faults) {
        while (scratch.key.length < MAX_KEY) {
            scratch.key = new byte[scratch.key.length * 2];
            int length = key(schema, faults, scratch.key);
            if (length != SchemaKey.FULL) {
                return length;
            }
        }
        return SchemaKey.UNUSUAL;
    }

    /** @return whether {@code field}, written out as an export writes it, has the key {@code key[0, length)} */
    private static boolean writesBackAs(Field field, byte[] key, int length) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment written = arena.allocate(ArrowSchemaLayout.LAYOUT);
            StructWriter.writeSchema(written, field);
            try {
                byte[] again = new byte[length + 1];
                return key(written.address(), TRUSTING, again) == length && Arrays.equals(again, 0, length, key, 0, length);
            } finally {
                ReleaseCallbacks.releaseSchemaStruct(written);
            }
        }
    }
}
