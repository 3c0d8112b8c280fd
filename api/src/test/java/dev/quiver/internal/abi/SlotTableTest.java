package dev.quiver.internal.abi;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Ids of a {@link SlotTable}: live until removed, never found again after, whatever reuses their slot. */
class SlotTableTest {

    @Test
    void anIdNamesItsEntryUntilRemovedAndNeverAfter() {
        SlotTable table = new SlotTable();
        Object first = new Object();
        long id = table.add(first, 42, 3);
        int slot = table.slot(id);
        assertTrue(slot >= 0);
        assertSame(first, table.value(slot));
        assertEquals(42, table.word(slot));
        assertEquals(2, table.addCount(slot, id, -1));
        assertTrue(table.remove(id));
        assertFalse(table.remove(id), "removed once");
        assertEquals(-1, table.slot(id));

        long next = table.add(new Object(), 0, 1);
        assertEquals(slot, table.slot(next), "the freed slot is used again");
        assertTrue(next != id, "under a new id");
        assertEquals(-1, table.slot(id), "the old id still finds nothing");
        assertEquals(-1, table.addCount(slot, id, -1), "nor counts against the new entry");
        assertEquals(1, table.totalCount());
        assertTrue(table.free(next));
        assertFalse(table.free(next));
    }

    @Test
    void aCounterNeverGoesNegative() {
        SlotTable table = new SlotTable();
        long id = table.add(null, 0, 2);
        int slot = table.slot(id);
        assertTrue(table.addCount(slot, id, -3) < -1);
        assertEquals(0, table.addCount(slot, id, -2));
    }

    @Test
    void garbageIdsFindNothing() {
        SlotTable table = new SlotTable();
        table.add(new Object(), 0, 0);
        for (long garbage : new long[] {0, -1, 1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 22, (1L << 22) + 5000}) {
            assertEquals(-1, table.slot(garbage), "id " + garbage);
            assertFalse(table.remove(garbage));
        }
    }

    @Test
    void threadsAddingAndRemovingNeverShareAnId() throws Exception {
        SlotTable table = new SlotTable();
        Set<Long> seen = ConcurrentHashMap.newKeySet();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            Future<?>[] done = new Future<?>[4];
            for (int t = 0; t < done.length; t++) {
                done[t] = pool.submit(() -> {
                    Set<Long> mine = new HashSet<>();
                    for (int i = 0; i < 20_000; i++) {
                        Object value = new Object();
                        long id = table.add(value, i, 1);
                        assertTrue(seen.add(id), "id " + id + " handed out twice");
                        assertSame(value, table.value(table.slot(id)));
                        if (i % 3 == 0) {
                            mine.add(id);
                        } else {
                            assertTrue(table.remove(id));
                        }
                    }
                    for (long id : mine) {
                        assertTrue(table.free(id));
                    }
                    return null;
                });
            }
            for (Future<?> f : done) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
        assertEquals(0, table.size());
    }
}
