package dev.quiver.cli;

import dev.quiver.DeviceArray;
import dev.quiver.host.BinaryVectors;
import dev.quiver.host.FixedWidthVectors;
import dev.quiver.host.HostVector;
import dev.quiver.host.Validity;
import dev.quiver.type.Field;

import java.util.ArrayList;
import java.util.List;

/**
 * The data {@code quiver flight serve --generate} and {@code quiver share --generate} offer: rows {@code id} (int64,
 * the row number), {@code value} (float64, half the id) and {@code name} (utf8, {@code row-ID}, null every tenth
 * row), split into batches of near-equal size. The batches are built once, with the bulk builders (primitive
 * arrays, no boxed values), the first time one is asked for; every later request is a zero-copy view of them, so
 * that a stream served many times costs its transfer, not its making.
 *
 * <p><b>Ownership and threading.</b> Owns the batches it built; {@link #close()} lets go of them (views handed out
 * keep theirs alive until closed). Any thread may ask for batches; the first request builds them all.
 */
public final class GeneratedBatches implements AutoCloseable {
    private final long rows;
    private final int batches;
    private List<DeviceArray> built;
    private boolean closed;

    /**
     * @param rows    total rows, at least 0
     * @param batches number of batches, at least 1
     */
    public GeneratedBatches(long rows, int batches) {
        if (rows < 0 || batches < 1) {
            throw new IllegalArgumentException("rows >= 0 in batches >= 1, not " + rows + " rows in " + batches);
        }
        this.rows = rows;
        this.batches = batches;
    }

    /** {@return the total rows} */
    public long rows() {
        return rows;
    }

    /** {@return the number of batches} */
    public int batches() {
        return batches;
    }

    /** {@return the struct field of every batch} */
    public Field schema() {
        return build(0, 0).field();
    }

    /**
     * {@return batch {@code index}, on the host (the CPU): a view of the batch built once, owned by the caller, who
     * closes it}
     * @param index a batch index, {@code 0 <= index < batches}
     * @throws IllegalStateException if this was closed
     */
    public DeviceArray batch(int index) {
        DeviceArray whole = built().get(index);
        return whole.slice(0, whole.length());
    }

    /**
     * @param index a batch index, {@code 0 <= index < batches}
     * @return the rows of that batch
     */
    public long rowsOf(int index) {
        return rows * (index + 1) / batches - rows * index / batches;
    }

    /** Lets go of the batches built; views handed out stay valid until closed. */
    @Override
    public synchronized void close() {
        closed = true;
        if (built != null) {
            built.forEach(DeviceArray::close);
            built = null;
        }
    }

    private synchronized List<DeviceArray> built() {
        if (closed) {
            throw new IllegalStateException("the generated batches were closed");
        }
        if (built == null) {
            List<DeviceArray> made = new ArrayList<>(batches);
            try {
                for (int i = 0; i < batches; i++) {
                    long first = rows * i / batches;
                    made.add(build(first, Math.toIntExact(rowsOf(i))).toDeviceArray());
                }
            } catch (RuntimeException | Error e) {
                made.forEach(DeviceArray::close);
                throw e;
            }
            built = made;
        }
        return built;
    }

    private static HostVector build(long first, int count) {
        long[] ids = new long[count];
        double[] values = new double[count];
        boolean[] named = new boolean[count];
        int[] offsets = new int[count + 1];
        byte[] names = new byte[Math.toIntExact(count * (4L + 20))];   // "row-" and at most 20 digits each
        int at = 0;
        for (int i = 0; i < count; i++) {
            long id = first + i;
            ids[i] = id;
            values[i] = id * 0.5;
            named[i] = id % 10 != 9;
            if (named[i]) {
                names[at++] = 'r';
                names[at++] = 'o';
                names[at++] = 'w';
                names[at++] = '-';
                at = digits(id, names, at);
            }
            offsets[i + 1] = at;
        }
        return HostVector.struct("batch", FixedWidthVectors.int64("id", ids, Validity.allValid()),
                FixedWidthVectors.float64("value", values, Validity.allValid()),
                BinaryVectors.utf8("name", java.util.Arrays.copyOf(names, at), offsets, Validity.of(named)));
    }

    /** Writes the decimal digits of {@code value} (not negative) at {@code at}; returns where they end. */
    private static int digits(long value, byte[] out, int at) {
        int length = 0;
        for (long rest = value; rest != 0 || length == 0; rest /= 10) {
            length++;
        }
        for (int i = at + length - 1; i >= at; i--) {
            out[i] = (byte) ('0' + value % 10);
            value /= 10;
        }
        return at + length;
    }
}
