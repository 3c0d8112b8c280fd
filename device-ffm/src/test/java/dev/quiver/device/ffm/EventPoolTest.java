package dev.quiver.device.ffm;

import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The event pool keeps what it made for the next take, up to its capacity, destroys handles it did not make
 * and what does not fit, and destroys what it keeps when cleared. Handles here are plain numbers: the pool
 * never looks inside them.
 */
class EventPoolTest {
    private final AtomicLong next = new AtomicLong(0x10000);
    private final List<Long> destroyed = new ArrayList<>();
    private final EventPool pool = new EventPool(() -> MemorySegment.ofAddress(next.getAndAdd(16)),
            event -> destroyed.add(event.address()));

    @Test
    void aGivenBackEventIsTakenAgain() {
        MemorySegment first = pool.take();
        pool.giveBack(first);
        assertEquals(first.address(), pool.take().address());
        assertEquals(List.of(), destroyed);
    }

    @Test
    void aForeignEventIsDestroyedAndTheCapacityHolds() {
        pool.giveBack(MemorySegment.ofAddress(0x99));
        assertEquals(List.of(0x99L), destroyed);
        List<MemorySegment> taken = new ArrayList<>();
        for (int i = 0; i < EventPool.CAPACITY + 3; i++) {
            taken.add(pool.take());
        }
        taken.forEach(pool::giveBack);
        assertEquals(1 + 3, destroyed.size(), "the three beyond the capacity are destroyed");
        pool.clear();
        assertEquals(1 + 3 + EventPool.CAPACITY, destroyed.size(), "clearing destroys what was kept");
        long made = next.get();
        pool.take();
        assertEquals(made + 16, next.get(), "after a clear, a take makes a new event");
    }
}
