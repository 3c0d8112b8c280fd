package dev.quiver.flight;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.fail;

/** Waits, polling, for a condition another process reaches in its own time. */
public final class Eventually {
    private Eventually() {}

    /**
     * @param what      the condition, for the failure message
     * @param condition polled every 50 ms
     * @param state     described in the failure message
     */
    public static void holds(String what, BooleanSupplier condition, Supplier<Object> state) throws InterruptedException {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail(what + " did not happen within 20 s: " + state.get());
            }
            Thread.sleep(50);
        }
    }
}
