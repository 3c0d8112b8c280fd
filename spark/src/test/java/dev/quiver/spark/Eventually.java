package dev.quiver.spark;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.fail;

/** Waits, up to 30 seconds, for something that other threads make true (a task's end, a release). */
final class Eventually {
    private Eventually() {}

    static void holds(String what, BooleanSupplier condition, Supplier<String> state) throws InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(what + " did not happen within 30 s: " + state.get());
            }
            Thread.sleep(20);
        }
    }
}
