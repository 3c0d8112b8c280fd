package dev.quiver.internal.backend;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * Live handles of one device (allocations, streams or events), each with a {@code long} value (a size, or
 * nothing). Lookups take no lock and allocate nothing, so that checking a copy costs a few reads; changes are
 * serialised on the table, which is fine for allocation, stream and event lifetimes.
 *
 * <p>Open addressing with linear probing over immutable entries. Removal leaves a marker and the table is
 * rebuilt once live entries and markers fill half of it, so a lookup always ends at an empty slot. A lookup
 * racing with a change sees the table before or after it. Thread-safe.
 */
final class HandleTable {
    /** What {@link #get} and {@link #remove} return for a handle that is not in the table. */
    static final long ABSENT = -1;
    private static final int MIN_CAPACITY = 16;
    private static final Entry REMOVED = new Entry(0, 0);

    private record Entry(long handle, long value) {}

    private volatile AtomicReferenceArray<Entry> slots = new AtomicReferenceArray<>(MIN_CAPACITY);
    private int occupied;
    private int live;

    /**
     * @param handle a handle
     * @return its value, or {@link #ABSENT}
     */
    long get(long handle) {
        AtomicReferenceArray<Entry> table = slots;
        int i = slotOf(table, handle);
        Entry entry = i < 0 ? null : table.get(i);
        return entry != null && entry != REMOVED && entry.handle() == handle ? entry.value() : ABSENT;
    }

    /**
     * Adds a handle, or replaces its value if it is there.
     *
     * @param handle a handle
     * @param value  a non-negative value
     */
    synchronized void put(long handle, long value) {
        AtomicReferenceArray<Entry> table = slots;
        int i = slotOf(table, handle);
        if (i >= 0) {
            table.set(i, new Entry(handle, value));
            return;
        }
        table.set(emptySlot(table, handle), new Entry(handle, value));
        live++;
        if (++occupied * 2 > table.length()) {
            rebuild();
        }
    }

    /**
     * @param handle a handle
     * @return the value it had, or {@link #ABSENT} if it was not there
     */
    synchronized long remove(long handle) {
        AtomicReferenceArray<Entry> table = slots;
        int i = slotOf(table, handle);
        if (i < 0) {
            return ABSENT;
        }
        long value = table.get(i).value();
        table.set(i, REMOVED);
        live--;
        return value;
    }

    /** @return how many handles are in the table */
    synchronized int size() {
        return live;
    }

    /** Copies the live entries into a table a quarter full (at least {@value #MIN_CAPACITY} slots). */
    private void rebuild() {
        AtomicReferenceArray<Entry> old = slots;
        int capacity = Math.max(MIN_CAPACITY, Integer.highestOneBit(Math.max(live, 1) * 4 - 1) << 1);
        AtomicReferenceArray<Entry> table = new AtomicReferenceArray<>(capacity);
        for (int j = 0; j < old.length(); j++) {
            Entry entry = old.get(j);
            if (entry != null && entry != REMOVED) {
                table.set(emptySlot(table, entry.handle()), entry);
            }
        }
        occupied = live;
        slots = table;
    }

    /** @return the slot holding {@code handle}, or -1 if the probe reaches an empty slot first */
    private static int slotOf(AtomicReferenceArray<Entry> table, long handle) {
        int mask = table.length() - 1;
        for (int i = home(handle, mask); ; i = (i + 1) & mask) {
            Entry entry = table.get(i);
            if (entry == null) {
                return -1;
            }
            if (entry != REMOVED && entry.handle() == handle) {
                return i;
            }
        }
    }

    /** @return the first empty slot on the probe path of {@code handle} */
    private static int emptySlot(AtomicReferenceArray<Entry> table, long handle) {
        int mask = table.length() - 1;
        int i = home(handle, mask);
        while (table.get(i) != null) {
            i = (i + 1) & mask;
        }
        return i;
    }

    /** Fibonacci hashing: addresses differ in their middle bits, which the multiplication spreads upwards. */
    private static int home(long handle, int mask) {
        return (int) ((handle * 0x9E3779B97F4A7C15L) >>> 32) & mask;
    }
}
