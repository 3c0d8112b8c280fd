package dev.quiver.internal.abi;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A table of live entries named by ids, without allocation once warm: the id store, the export table and
 * the leak registry of device arrays are built on it. Each entry holds an object, a 64-bit word and a
 * counter. An id is {@code generation << 22 | (slot + 1)}: the slot says where the entry lives, the
 * generation which use of the slot it names, so an id kept after its entry was removed finds nothing, even
 * once the slot serves another entry (an id would be named again only after its slot had been reused 2^41
 * times). Ids are positive, never 0.
 *
 * <p>Free slots form a lock-free stack (a tagged head against ABA); slots come in chunks of 1,024, added
 * when the stack is empty, never freed, up to 4,194,304 live entries. Thread-safe: any thread may add,
 * look up, count and remove.
 */
final class SlotTable {
    private static final int SLOT_BITS = 22;
    private static final long SLOT_MASK = (1L << SLOT_BITS) - 1;
    private static final int CHUNK_BITS = 10;
    private static final int CHUNK = 1 << CHUNK_BITS;
    private static final int MAX_CHUNKS = 1 << (SLOT_BITS - CHUNK_BITS);
    private static final long COUNT_MASK = 0xFFFF_FFFFL;
    private static final VarHandle IDS = MethodHandles.arrayElementVarHandle(long[].class);
    private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

    /** One chunk's entries, indexed by slot within the chunk. */
    private static final class Chunk {
        /** The live id, or minus the last id of a free slot (0 for one never used). */
        final long[] ids = new long[CHUNK];
        /** Free-stack links: the next free slot + 1, 0 at the bottom. */
        final int[] next = new int[CHUNK];
        final Object[] values = new Object[CHUNK];
        final long[] words = new long[CHUNK];
        /** The low 32 bits of the id's generation, then the 32-bit counter. */
        final long[] counts = new long[CHUNK];
    }

    private final AtomicReferenceArray<Chunk> chunks = new AtomicReferenceArray<>(MAX_CHUNKS);
    /** The tag (bits 32-63) and the top free slot + 1 (bits 0-31, 0 when empty). */
    private final AtomicLong head = new AtomicLong();
    private int chunkCount;

    /** Makes an empty table. */
    SlotTable() {}

    /**
     * Adds an entry.
     *
     * @param value the entry's object (may be null)
     * @param word  the entry's word
     * @param count the counter's first value, 0 to 2^32 - 1
     * @return the id naming the entry until {@link #remove}
     * @throws IllegalStateException if 4,194,304 entries are live
     */
    long add(Object value, long word, long count) {
        int slot = pop();
        Chunk chunk = chunk(slot);
        int i = slot & (CHUNK - 1);
        long previous = chunk.ids[i];
        long generation = (-previous >>> SLOT_BITS) + 1;
        long id = generation << SLOT_BITS | (slot + 1L);
        chunk.values[i] = value;
        chunk.words[i] = word;
        chunk.counts[i] = (generation & COUNT_MASK) << 32 | (count & COUNT_MASK);
        IDS.setRelease(chunk.ids, i, id);
        return id;
    }

    /** @return the slot of a live id, or -1 if the id is not live (removed, never made, or garbage) */
    int slot(long id) {
        long slot = (id & SLOT_MASK) - 1;
        if (id <= 0 || slot < 0) {
            return -1;
        }
        Chunk chunk = chunks.get((int) (slot >>> CHUNK_BITS));
        if (chunk == null || (long) IDS.getAcquire(chunk.ids, (int) slot & (CHUNK - 1)) != id) {
            return -1;
        }
        return (int) slot;
    }

    /** @return the object of the entry in {@code slot}, as {@link #slot} found it live */
    Object value(int slot) {
        return chunk(slot).values[slot & (CHUNK - 1)];
    }

    /** @return the word of the entry in {@code slot}, as {@link #slot} found it live */
    long word(int slot) {
        return chunk(slot).words[slot & (CHUNK - 1)];
    }

    /**
     * Adds to the counter of entry {@code id}, atomically, if the slot still holds that entry.
     *
     * @param slot  the slot of {@code id}
     * @param id    the entry's id
     * @param delta what to add
     * @return the new counter value; -1 if the slot holds another entry now; below -1 if the counter would
     *         go negative (then it is left unchanged)
     */
    long addCount(int slot, long id, long delta) {
        Chunk chunk = chunk(slot);
        int i = slot & (CHUNK - 1);
        long tag = (id >>> SLOT_BITS) & COUNT_MASK;
        while (true) {
            long current = (long) COUNTS.getVolatile(chunk.counts, i);
            if (current >>> 32 != tag) {
                return -1;
            }
            long next = (current & COUNT_MASK) + delta;
            if (next < 0) {
                return Math.min(next, -2);
            }
            if (COUNTS.compareAndSet(chunk.counts, i, current, tag << 32 | (next & COUNT_MASK))) {
                return next;
            }
        }
    }

    /**
     * Removes a live entry.
     *
     * @param id the entry's id
     * @return true if this call removed it; false if it was not live
     */
    boolean remove(long id) {
        int slot = slot(id);
        if (slot < 0) {
            return false;
        }
        Chunk chunk = chunk(slot);
        int i = slot & (CHUNK - 1);
        if (!IDS.compareAndSet(chunk.ids, i, id, -id)) {
            return false;
        }
        chunk.values[i] = null;
        push(slot);
        return true;
    }

    /**
     * Removes a live entry, for an entry that only one thread ever removes (so no atomic check is needed).
     *
     * @param id the entry's id
     * @return true if it was live and is removed now
     */
    boolean free(long id) {
        int slot = slot(id);
        if (slot < 0) {
            return false;
        }
        Chunk chunk = chunk(slot);
        int i = slot & (CHUNK - 1);
        chunk.values[i] = null;
        IDS.setRelease(chunk.ids, i, -id);
        push(slot);
        return true;
    }

    /** @return how many entries are live (a snapshot) */
    int size() {
        return (int) scan(false);
    }

    /** @return the sum of the counters of the live entries (a snapshot) */
    long totalCount() {
        return scan(true);
    }

    /** @return the number of live entries, or the sum of their counters */
    private long scan(boolean counters) {
        long total = 0;
        for (int c = 0; c < MAX_CHUNKS; c++) {
            Chunk chunk = chunks.get(c);
            if (chunk == null) {
                break;
            }
            for (int i = 0; i < CHUNK; i++) {
                if ((long) IDS.getAcquire(chunk.ids, i) > 0) {
                    total += counters ? (long) COUNTS.getVolatile(chunk.counts, i) & COUNT_MASK : 1;
                }
            }
        }
        return total;
    }

    private Chunk chunk(int slot) {
        return chunks.get(slot >>> CHUNK_BITS);
    }

    private int pop() {
        while (true) {
            long h = head.get();
            int top = (int) h;
            if (top == 0) {
                grow();
                continue;
            }
            int slot = top - 1;
            int below = chunk(slot).next[slot & (CHUNK - 1)];
            if (head.compareAndSet(h, ((h >>> 32) + 1) << 32 | (below & COUNT_MASK))) {
                return slot;
            }
        }
    }

    private void push(int slot) {
        int[] next = chunk(slot).next;
        while (true) {
            long h = head.get();
            next[slot & (CHUNK - 1)] = (int) h;
            if (head.compareAndSet(h, ((h >>> 32) + 1) << 32 | (slot + 1L))) {
                return;
            }
        }
    }

    /** Adds a chunk of free slots, unless another thread has just freed some. */
    private synchronized void grow() {
        if ((int) head.get() != 0) {
            return;
        }
        if (chunkCount == MAX_CHUNKS) {
            throw new IllegalStateException("more than " + ((long) MAX_CHUNKS * CHUNK) + " live entries");
        }
        int first = chunkCount * CHUNK;
        Chunk chunk = new Chunk();
        for (int i = 0; i < CHUNK - 1; i++) {
            chunk.next[i] = first + i + 2;
        }
        chunks.set(chunkCount++, chunk);
        while (true) {
            long h = head.get();
            chunk.next[CHUNK - 1] = (int) h;
            if (head.compareAndSet(h, ((h >>> 32) + 1) << 32 | (first + 1L))) {
                return;
            }
        }
    }
}
