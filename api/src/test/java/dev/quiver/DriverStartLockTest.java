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
 * The driver locks' rules: library loads run side by side and beside a driver start, driver starts run one at
 * a time, a load that walks the loaded libraries runs alone, and the one nesting that would wait forever is
 * refused. The timeout only detects a hang.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class DriverStartLockTest {

    @Test
    void loadsRunSideBySide() throws Exception {
        assertRunTogether(DriverStartLock::loading, DriverStartLock::loading);
    }

    @Test
    void aLoadRunsBesideADriverStart() throws Exception {
        assertRunTogether(DriverStartLock::holding, DriverStartLock::loading);
    }

    @Test
    void driversStartOneAtATime() throws Exception {
        assertExcludes(DriverStartLock::holding, DriverStartLock::holding, "a driver started while another started");
    }

    @Test
    void noLoadOrDriverStartRunsBesideALoadThatRunsAlone() throws Exception {
        assertExcludes(DriverStartLock::alone, DriverStartLock::loading, "a load ran beside a load that runs alone");
        assertExcludes(DriverStartLock::alone, DriverStartLock::holding, "a driver started beside a load that runs alone");
        assertExcludes(DriverStartLock::loading, DriverStartLock::alone, "a load that runs alone ran beside a load");
    }

    @Test
    void loadsAndDriverStartsNest() {
        assertEquals("inner", DriverStartLock.holding(() -> DriverStartLock.loading(() -> "inner")));
        assertEquals("start", DriverStartLock.loading(() -> DriverStartLock.holding(() -> "start")));
        assertEquals("again", DriverStartLock.holding(() -> DriverStartLock.holding(() -> "again")));
        assertEquals("both", DriverStartLock.alone(() -> DriverStartLock.holding(() -> DriverStartLock.loading(() -> "both"))));
    }

    @Test
    void aLoadThatRunsAloneInsideALoadIsRefused() {
        IllegalStateException refused = assertThrows(IllegalStateException.class,
                () -> DriverStartLock.loading(() -> DriverStartLock.alone(() -> "never")));
        assertTrue(refused.getMessage().contains("would wait forever"), refused.getMessage());
        assertThrows(IllegalStateException.class, () -> DriverStartLock.holding(() -> DriverStartLock.alone(() -> "never")));
        // and the locks are free again afterwards
        assertEquals("free", DriverStartLock.alone(() -> "free"));
    }

    /** A section of the lock, as {@code DriverStartLock::holding} and its siblings are. */
    private interface Section {
        Object run(java.util.function.Supplier<Object> body);
    }

    /** Asserts that one thread can be inside {@code first} while another is inside {@code second}. */
    private static void assertRunTogether(Section first, Section second) throws Exception {
        CyclicBarrier both = new CyclicBarrier(2);
        Thread other = Thread.ofPlatform().start(() -> first.run(() -> await(both)));
        // returns only if the other thread is inside its section at the same time
        second.run(() -> await(both));
        other.join();
    }

    /** Asserts that {@code second} does not run on another thread while a thread is inside {@code first}. */
    private static void assertExcludes(Section first, Section second, String failure) throws Exception {
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicBoolean ran = new AtomicBoolean();
        Thread holder = Thread.ofPlatform().start(() -> first.run(() -> {
            inside.countDown();
            return awaitLatch(release);
        }));
        inside.await();
        Thread other = Thread.ofPlatform().start(() -> second.run(() -> {
            ran.set(true);
            return null;
        }));
        other.join(300);
        assertFalse(ran.get(), failure);
        release.countDown();
        holder.join();
        other.join();
        assertTrue(ran.get());
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
