package dev.quiver;

import dev.quiver.spi.DriverStartLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The driver lock's rules: library loads run side by side, a driver start or LWJGL's loading runs alone,
 * and the one nesting that would wait forever is refused. The timeout only detects a hang.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DriverStartLockTest {

    @Test
    void loadsRunSideBySide() throws Exception {
        CyclicBarrier both = new CyclicBarrier(2);
        Thread other = Thread.ofPlatform().start(() -> DriverStartLock.loading(() -> await(both)));
        // returns only if the other thread is inside loading at the same time
        DriverStartLock.loading(() -> await(both));
        other.join();
    }

    @Test
    void noLoadRunsWhileADriverStarts() throws Exception {
        CountDownLatch holding = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean loaded = new AtomicBoolean();
        Thread starter = Thread.ofPlatform().start(() -> DriverStartLock.holding(() -> {
            holding.countDown();
            return awaitLatch(release);
        }));
        holding.await();
        Thread loader = Thread.ofPlatform().start(() -> DriverStartLock.loading(() -> {
            loaded.set(true);
            return null;
        }));
        loader.join(300);
        assertFalse(loaded.get(), "a load ran while a driver started");
        release.countDown();
        starter.join();
        loader.join();
        assertTrue(loaded.get());
    }

    @Test
    void aLoadMayRunInsideADriverStart() {
        assertEquals("inner", DriverStartLock.holding(() -> DriverStartLock.loading(() -> "inner")));
        assertEquals("again", DriverStartLock.holding(() -> DriverStartLock.holding(() -> "again")));
    }

    @Test
    void aDriverStartInsideALoadIsRefused() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> DriverStartLock.loading(() -> DriverStartLock.holding(() -> "never")));
        assertTrue(refused.getMessage().contains("would wait forever"), refused.getMessage());
        // and the lock is free again afterwards
        assertEquals("free", DriverStartLock.holding(() -> "free"));
    }

    private static Object await(CyclicBarrier barrier) {
        try {
            return barrier.await(10, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object awaitLatch(CountDownLatch latch) {
        try {
            return latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new IllegalStateException(e);
        }
    }
}
