package dev.quiver;

import dev.quiver.host.HostVector;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** An array dropped without close() is reported with its allocation site, and not released. */
class LeakReportTest {

    @Test
    void aDroppedArrayIsReportedNotReleased() throws InterruptedException {
        List<Optional<Throwable>> sites = new CopyOnWriteArrayList<>();
        List<String> leaks = new CopyOnWriteArrayList<>();
        BiConsumer<String, Optional<Throwable>> listener = (what, site) -> {
            if (what.contains("leaky-column")) {
                leaks.add(what);
                sites.add(site);
            }
        };
        Diagnostics.addLeakListener(listener);
        try (CapturedLog log = CapturedLog.of("dev.quiver.leaks")) {
            long exportsBefore = Diagnostics.liveExports();
            dropOne();
            for (int i = 0; i < 200 && (leaks.isEmpty() || !loggedTheLeak(log)); i++) {   // listeners hear of it first
                System.gc();
                Thread.sleep(20);
            }
            assertEquals(1, leaks.size(), "the leak was reported once");
            assertTrue(Diagnostics.leakedArrays() >= 1);
            assertEquals(exportsBefore + 2, Diagnostics.liveExports(),
                    "the leaked array and its schema were not released behind the owner's back");
            Throwable site = sites.getFirst().orElseThrow(() -> new AssertionError("leak tracking is on in tests; the site is known"));
            assertTrue(List.of(site.getStackTrace()).stream().anyMatch(f -> f.getMethodName().equals("dropOne")),
                    "the allocation site names the method that made the array");
            assertTrue(loggedTheLeak(log), "and logged as a warning: " + log.messages());
        } finally {
            Diagnostics.removeLeakListener(listener);
        }
    }

    @Test
    void closedArraysAreNeverReported() throws InterruptedException {
        List<String> leaks = new CopyOnWriteArrayList<>();
        BiConsumer<String, Optional<Throwable>> listener = (what, site) -> {
            if (what.contains("closed-column")) {
                leaks.add(what);
            }
        };
        Diagnostics.addLeakListener(listener);
        try {
            for (int i = 0; i < 50; i++) {
                HostVector.int32("closed-column", 1, 2, 3).toDeviceArray(Devices.cpuOnly()).close();
            }
            System.gc();
            Thread.sleep(200);
            assertEquals(List.of(), leaks);
        } finally {
            Diagnostics.removeLeakListener(listener);
        }
    }

    private static boolean loggedTheLeak(CapturedLog log) {
        return log.messages().stream().anyMatch(message -> message.contains("\"leaky-column\" was never closed"));
    }

    private static void dropOne() {
        HostVector.int32("leaky-column", 1, 2, 3).toDeviceArray(Devices.cpuOnly());
    }
}
