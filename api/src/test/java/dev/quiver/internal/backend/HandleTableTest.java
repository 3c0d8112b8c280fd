package dev.quiver.internal.backend;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The table of live handles: values found, replaced and removed, through rebuilds and concurrent lookups. */
class HandleTableTest {

    @Test
    void findsReplacesAndRemovesThroughManyRebuilds() {
        HandleTable table = new HandleTable();
        for (long i = 1; i <= 10_000; i++) {
            table.put(i * 64, i);
        }
        assertEquals(10_000, table.size());
        for (long i = 1; i <= 10_000; i += 2) {
            assertEquals(i, table.remove(i * 64));
        }
        assertEquals(HandleTable.ABSENT, table.remove(64), "removed once only");
        assertEquals(5_000, table.size());
        for (long i = 1; i <= 10_000; i++) {
            assertEquals(i % 2 == 1 ? HandleTable.ABSENT : i, table.get(i * 64), "handle " + i * 64);
        }
        table.put(128, 7);
        assertEquals(7, table.get(128), "a second put replaces the value");
        assertEquals(5_000, table.size());
        assertEquals(HandleTable.ABSENT, table.get(0));
    }

    @Test
    void lookupsSeeEveryHandleThatStaysWhileOthersComeAndGo() {
        HandleTable table = new HandleTable();
        for (long i = 1; i <= 1_000; i++) {
            table.put(i << 20, i);
        }
        CompletableFuture<Void> churn = CompletableFuture.runAsync(() -> {
            for (long round = 0; round < 200; round++) {
                for (long i = 1; i <= 100; i++) {
                    table.put((round << 40) | (i << 8), i);
                }
                for (long i = 1; i <= 100; i++) {
                    table.remove((round << 40) | (i << 8));
                }
            }
        });
        while (!churn.isDone()) {
            IntStream.rangeClosed(1, 1_000).forEach(i -> assertEquals(i, table.get((long) i << 20)));
        }
        churn.join();
        assertEquals(1_000, table.size());
    }
}
