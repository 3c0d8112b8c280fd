package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;

import java.nio.file.Path;
import java.util.Arrays;

/**
 * A timed run, not a test: the handoff of one int64 array of 1 MiB, 64 MiB and 1 GiB from an owner in a child JVM
 * (built once in a shared arena) to this JVM, 20 times per size. Each handoff is timed from asking for the batch to
 * holding the imported array (BATCH with its descriptor, {@code fstat}, {@code mmap}, building the array; contents
 * not validated) and then reading its last value (one page touched); the close (unmap, RELEASED) is timed apart.
 * Prints medians per size. Then a stream of 20,000 batches of 1,000 int64 rows with a window of 64, in batches per
 * second. Run with the test class path and {@code --enable-native-access=ALL-UNNAMED}.
 */
public final class HandoffTiming {
    private HandoffTiming() {}

    /**
     * Runs the timing.
     *
     * @param args ignored
     */
    public static void main(String[] args) {
        int count = Integer.getInteger("count", 20);
        for (long bytes : new long[] {1L << 20, 64L << 20, 1L << 30}) {
            try (ChildJvm owner = ChildJvm.start("serve-sized", Long.toString(bytes), Integer.toString(count))) {
                Path socket = Path.of(owner.lineStartingWith("SOCKET "));
                long[] handoff = new long[count];
                long[] release = new long[count];
                try (ShareClient client = ShareClient.connect(socket, Devices.system().cpu(), new ReceiveOptions(1, false))) {
                    for (int i = 0; i < count; i++) {
                        long start = System.nanoTime();
                        DeviceArray array = client.next().orElseThrow().array();
                        long last = array.buffer(1).asSegment().get(java.lang.foreign.ValueLayout.JAVA_LONG, bytes - 8);
                        handoff[i] = System.nanoTime() - start;
                        if (last != bytes / 8 - 1) {
                            throw new IllegalStateException("read " + last);
                        }
                        long closing = System.nanoTime();
                        array.close();
                        release[i] = System.nanoTime() - closing;
                    }
                }
                Arrays.sort(handoff);
                Arrays.sort(release);
                System.out.printf("%,15d bytes: handoff median %7.1f us (min %7.1f, max %7.1f), close median %6.1f us%n", bytes,
                        handoff[count / 2] / 1e3, handoff[0] / 1e3, handoff[count - 1] / 1e3, release[count / 2] / 1e3);
            }
        }
        int batches = 20_000;
        try (ChildJvm owner = ChildJvm.start("serve-sized", "8000", Integer.toString(batches))) {
            Path socket = Path.of(owner.lineStartingWith("SOCKET "));
            try (ShareClient client = ShareClient.connect(socket, Devices.system().cpu(), new ReceiveOptions(64, false))) {
                long start = System.nanoTime();
                for (int i = 0; i < batches; i++) {
                    client.next().orElseThrow().array().close();
                }
                double seconds = (System.nanoTime() - start) / 1e9;
                System.out.printf("%,d batches of 1,000 int64 rows: %,.0f batches/s%n", batches, batches / seconds);
            }
        }
    }
}
