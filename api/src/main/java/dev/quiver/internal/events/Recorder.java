package dev.quiver.internal.events;

import jdk.jfr.FlightRecorder;

/**
 * Where the hot paths start Quiver's events. Each method returns null, touching no event class, while no
 * flight recorder runs in this JVM: the first use of a JFR event class starts JFR's metadata (about 100 ms
 * of start-up), which a program that records nothing should not pay. Once a recorder runs (started with
 * {@code -XX:StartFlightRecording} or by {@code jcmd <pid> JFR.start}), they return a begun event whenever a
 * recording has it enabled. Stateless; any thread.
 */
public final class Recorder {
    private Recorder() {}

    /** {@return whether a flight recorder runs in this JVM, so that a recording may want events} */
    private static boolean running() {
        return FlightRecorder.isInitialized();
    }

    /** {@return a begun import event, or null when no recording wants one} */
    public static ArrayImportEvent arrayImport() {
        return running() ? ArrayImportEvent.start() : null;
    }

    /** {@return a begun export event, or null when no recording wants one} */
    public static ArrayExportEvent arrayExport() {
        return running() ? ArrayExportEvent.start() : null;
    }

    /** {@return a begun release event, or null when no recording wants one} */
    public static ArrayReleaseEvent arrayRelease() {
        return running() ? ArrayReleaseEvent.start() : null;
    }

    /** {@return a begun copy event, or null when no recording wants one} */
    public static ArrayCopyEvent arrayCopy() {
        return running() ? ArrayCopyEvent.start() : null;
    }

    /** {@return a begun stream batch event, or null when no recording wants one} */
    public static StreamBatchEvent streamBatch() {
        return running() ? StreamBatchEvent.start() : null;
    }

    /** {@return a begun pool growth event, or null when no recording wants one} */
    public static PoolGrowEvent poolGrow() {
        return running() ? PoolGrowEvent.start() : null;
    }

    /** {@return a begun pool trim event, or null when no recording wants one} */
    public static PoolTrimEvent poolTrim() {
        return running() ? PoolTrimEvent.start() : null;
    }
}
