package dev.quiver.benchmarks;

import dev.quiver.ArrayBuilder;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.Devices;
import dev.quiver.share.ShareException;
import dev.quiver.share.ShareServer;
import dev.quiver.share.ShareSession;
import dev.quiver.share.SharedHostArena;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The owner process of {@link ShareStream}: builds {@value #ARRAYS} int64 arrays of the given row count in one
 * {@link SharedHostArena} (array {@code a} holds {@code a * rows + i} at row {@code i}), prints
 * {@code SOCKET path}, and streams them in turn, zero-copy, to the one receiver that connects, until it leaves.
 * Not a benchmark itself; started by {@link ShareStream} as a separate JVM.
 */
public final class ShareStreamOwner {
    /** Arrays sent in turn. */
    static final int ARRAYS = 16;

    private ShareStreamOwner() {}

    /**
     * Serves until the receiver leaves.
     *
     * @param args the rows of each array
     */
    public static void main(String[] args) {
        int rows = Integer.parseInt(args[0]);
        Field field = Field.of("v", new ArrowType.Int(64, true), false);
        List<DeviceArray> arrays = new ArrayList<>();
        try (ShareServer server = ShareServer.bindPrivate();
             SharedHostArena arena = SharedHostArena.create((long) ARRAYS * rows * 8 + 4096)) {
            for (int a = 0; a < ARRAYS; a++) {
                DeviceBuffer values = arena.allocate((long) rows * 8);
                MemorySegment segment = values.asSegment();
                for (int i = 0; i < rows; i++) {
                    segment.setAtIndex(JAVA_LONG, i, (long) a * rows + i);
                }
                arrays.add(ArrayBuilder.of(field, Devices.system().cpu()).length(rows).nullCount(0).absentBuffer().buffer(values).build());
            }
            System.out.println("SOCKET " + server.path());
            System.out.flush();
            try (ShareSession session = server.accept()) {
                for (long sent = 0; ; sent++) {
                    session.send(arrays.get((int) (sent % ARRAYS)));
                }
            } catch (ShareException receiverLeft) {
                // the benchmark ended: the receiver closed its connection
            }
        } finally {
            arrays.forEach(DeviceArray::close);
        }
    }
}
