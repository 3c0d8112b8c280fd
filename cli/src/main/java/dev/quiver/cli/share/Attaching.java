package dev.quiver.cli.share;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.cli.Progress;
import dev.quiver.host.ArrayReader;
import dev.quiver.share.ReceiveOptions;
import dev.quiver.share.ReceivedBatch;
import dev.quiver.share.ShareClient;
import dev.quiver.share.ShareException;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The work of {@code quiver attach}: connects to an owner, receives every batch, reads what it must of it and
 * closes it at once (which tells the owner), so memory holds one batch whatever the stream's size. Runs on the
 * calling thread. A failure (no socket there, a refused handshake, an owner gone mid-stream, a batch that fails
 * validation) is thrown, for the command's one-line report. The summary counts a batch as zero-copy only when it
 * is the owner's own memory on the device asked for; one the owner copied, or one received on the CPU and copied
 * here onto that device (an owner that does not serve it), is counted as copied.
 */
public final class Attaching {
    private Attaching() {}

    /**
     * What to receive and how.
     *
     * @param socket   the owner's socket
     * @param target   where batches land: received on it, with no copy, where the owner serves that device; else
     *                 received on the CPU and copied there
     * @param show     how many rows to print
     * @param validate whether every value of every batch is validated
     * @param timeout  how long to wait for the owner's next message before giving up; zero waits as long as it lives
     */
    public record Settings(Path socket, Device target, int show, boolean validate, java.time.Duration timeout) {
    }

    /**
     * Receives the whole stream.
     *
     * @param settings what to receive
     * @param out      receives the owner, the schema, the rows asked for and the summary
     * @param err      receives the live progress, on a terminal
     * @return 0
     * @throws dev.quiver.share.ShareException  if the connection, the handshake or the stream failed
     * @throws dev.quiver.InvalidArrowException if {@code validate} is set and a batch is invalid
     */
    public static int receive(Settings settings, PrintWriter out, PrintWriter err) {
        Device target = settings.target();
        ReceiveOptions options = ReceiveOptions.defaults().withTimeout(settings.timeout());
        try (ShareClient client = connect(settings.socket(), target, options)) {
            out.println("owner " + client.owner());
            out.println(RowText.fit("schema " + RowText.schema(client.schema())));
            out.flush();
            Progress progress = new Progress(System.console() != null ? err : null);
            List<String> rows = new ArrayList<>();
            long bytes = 0;
            long zeroCopy = 0;
            long copied = 0;
            long copiedHere = 0;
            for (Optional<ReceivedBatch> next = client.next(); next.isPresent(); next = client.next()) {
                ReceivedBatch batch = next.get();
                try (DeviceArray array = batch.array();
                     DeviceArray host = array.deviceType() == DeviceType.CPU ? null : Copies.toHost(array)) {
                    DeviceArray readable = host == null ? array : host;
                    if (settings.validate()) {
                        Interchange.validateFull(readable);
                    }
                    boolean onTarget = array.deviceType().equals(target.type());
                    if (!onTarget) {
                        Copies.toDevice(array, target).close();   // the owner does not serve the target: host memory, copied there
                    }
                    if (batch.copied()) {
                        copied++;
                    } else if (onTarget) {
                        zeroCopy++;   // the owner's own memory, on the device asked for
                    } else {
                        copiedHere++;
                    }
                    bytes += ArrayBytes.of(array);
                    RowText.take(ArrayReader.of(readable), settings.show() - rows.size(), rows);
                    progress.batch(array.length(), bytes);
                }
            }
            String summary = progress.summary(bytes, target.toString());
            rows.forEach(out::println);
            out.println(summary);
            out.println(zeroCopy + " zero-copy, " + (copied + copiedHere) + " copied"
                    + (copiedHere == 0 ? "" : " (" + copiedHere + " received zero-copy on the CPU, copied here onto " + target + ")")
                    + (settings.validate() ? ", every value valid" : ""));
            out.flush();
        }
        return 0;
    }

    /**
     * Connects as a receiver of {@code target}; if that is a device the owner does not serve, as a receiver of the
     * CPU instead, whose batches are then copied onto the target.
     */
    private static ShareClient connect(Path socket, Device target, ReceiveOptions options) {
        try {
            return ShareClient.connect(socket, target, options);
        } catch (ShareException e) {
            if (e.reason() != ShareException.Reason.DEVICE || target.type() == DeviceType.CPU) {
                throw e;
            }
            return ShareClient.connect(socket, Devices.system().cpu(), options);
        }
    }
}
