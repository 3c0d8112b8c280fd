package dev.quiver.cli.share;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.cli.GeneratedBatches;
import dev.quiver.cli.Progress;
import dev.quiver.share.ShareException;
import dev.quiver.share.ShareServer;
import dev.quiver.share.ShareSession;
import dev.quiver.share.SharedHostArena;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The work of {@code quiver share}: listens, then serves each receiver in turn the whole generated stream,
 * built batch by batch in a {@link SharedHostArena} of its own (or in ordinary memory, which the session copies),
 * or copied onto a device, whose receivers on that device get it as the driver's handles, with no copy; and waits
 * until the receiver released every batch, or left, before taking the next (a receiver whose limits no batch fits is
 * sent ERROR {@code LIMIT} and the next is taken). Runs on the calling thread; with
 * {@code --seconds}, a timer thread closes the server to end a wait for a receiver.
 */
public final class Sharing {
    private static final Duration RELEASE_WAIT = Duration.ofDays(1);

    private Sharing() {}

    /**
     * What to share and how.
     *
     * @param socket    the socket to listen at, or null for a private one
     * @param rows      rows of the generated stream
     * @param batches   its batches
     * @param copy      whether the batches live in ordinary memory, copied for each handoff
     * @param receivers how many receivers to serve
     * @param seconds   how long to wait for them, 0 for as long as it takes
     * @param device    where the batches live: the CPU, or a device each batch is copied onto before it is shared
     */
    public record Settings(Path socket, long rows, int batches, boolean copy, int receivers, long seconds, Device device) {
        /** {@return whether the batches live on a device other than the CPU} */
        boolean onDevice() {
            return device.type() != DeviceType.CPU;
        }
    }

    /**
     * Serves the receivers.
     *
     * @param settings what to share
     * @param out      receives the socket's path and one summary per receiver
     * @param err      receives the live progress (on a terminal) and each receiver's failure
     * @return 0, or 1 if a receiver was refused or went away before the end
     * @throws InterruptedException if interrupted while waiting for releases
     */
    public static int serve(Settings settings, PrintWriter out, PrintWriter err) throws InterruptedException {
        try (GeneratedBatches generated = new GeneratedBatches(settings.rows(), settings.batches())) {
            return serve(settings, generated, out, err);
        }
    }

    private static int serve(Settings settings, GeneratedBatches generated, PrintWriter out, PrintWriter err) throws InterruptedException {
        String mode = settings.onDevice() ? "on " + settings.device() + ", zero-copy to receivers on it, copied for others"
                : settings.copy() ? "copied for each handoff" : "zero-copy from shared memory";
        AtomicBoolean timeUp = new AtomicBoolean();
        int failed = 0;
        int served = 0;
        try (ShareServer server = (settings.socket() == null ? ShareServer.bindPrivate() : ShareServer.bind(settings.socket()))
                .serve(settings.device())) {
            out.println("sharing on " + server.path());
            out.println(settings.rows() + " rows in " + settings.batches() + " batches, " + mode);
            out.flush();
            Thread timer = settings.seconds() == 0 ? null : Thread.ofPlatform().daemon().start(() -> {
                try {
                    Thread.sleep(Duration.ofSeconds(settings.seconds()));
                    timeUp.set(true);
                    server.close();
                } catch (InterruptedException e) {
                    // every receiver was served in time
                }
            });
            while (served < settings.receivers()) {
                ShareSession session;
                try {
                    session = server.accept();
                } catch (ShareException e) {
                    if (timeUp.get()) {
                        out.println("stopped after " + settings.seconds() + " s: served " + served + " of " + settings.receivers() + " receivers");
                        break;
                    }
                    if (e.reason() == ShareException.Reason.SYSTEM) {
                        throw e;
                    }
                    err.println("quiver share: " + e.getMessage());
                    err.flush();
                    if (e.reason() != ShareException.Reason.DEVICE) {
                        failed++;   // a receiver of another device ('quiver attach --device') asks again on the CPU
                    }
                    continue;
                }
                served++;
                try (session) {
                    failed += serveOne(session, generated, settings, out, err) ? 0 : 1;
                }
            }
            if (timer != null) {
                timer.interrupt();
            }
        }
        out.flush();
        return failed == 0 ? 0 : 1;
    }

    private static boolean serveOne(ShareSession session, GeneratedBatches generated, Settings settings, PrintWriter out,
                                    PrintWriter err) throws InterruptedException {
        boolean copy = settings.copy();
        int pid = session.peer().pid();
        out.println("receiver process " + pid + " attached");
        out.flush();
        Progress progress = new Progress(System.console() != null ? err : null, "sent");
        long bytes = 0;
        int sent = 0;
        try {
            session.sendSchema(generated.schema());
            for (int i = 0; i < generated.batches(); i++) {
                try (DeviceArray batch = generated.batch(i);
                     DeviceArray shared = copy ? null : settings.onDevice() ? Copies.toDevice(batch, settings.device()) : inSharedMemory(batch)) {
                    DeviceArray handed = copy ? batch : shared;
                    session.send(handed);
                    sent++;
                    bytes += ArrayBytes.of(handed);
                    progress.batch(handed.length(), bytes);
                }
            }
            session.end();
            session.awaitReleased(RELEASE_WAIT);
        } catch (ShareException e) {
            progress.summary(bytes);
            err.println("quiver share: after " + sent + " of " + generated.batches() + " batches: " + e.getMessage());
            err.flush();
            return false;
        }
        out.println(progress.summary(bytes) + ", " + (copy ? "copied" : settings.onDevice() ? "from " + settings.device() : "zero-copy")
                + ", to process " + pid);
        if (session.failure().isPresent()) {
            err.println("quiver share: " + session.failure().get().getMessage());
            err.flush();
            return false;
        }
        long released = session.released();
        out.println(released == sent ? "process " + pid + " released every batch"
                : "process " + pid + " left holding " + (sent - released) + " of " + sent + " batches; let go of them");
        out.flush();
        return true;
    }

    /** @return a copy of {@code batch} in a memory file of its own, freed once the copy and the receiver let go */
    private static DeviceArray inSharedMemory(DeviceArray batch) {
        long capacity = ArrayBytes.of(batch) + 64 * (ArrayBytes.buffers(batch) + 1);
        try (SharedHostArena arena = SharedHostArena.create(capacity)) {
            return arena.copyOf(batch);
        }
    }
}
