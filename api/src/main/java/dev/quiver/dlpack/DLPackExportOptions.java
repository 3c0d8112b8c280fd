package dev.quiver.dlpack;

import dev.quiver.InterchangeException;
import dev.quiver.DeviceStream;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * How to export an array as a DLPack tensor. Immutable: each method returns a new instance; safe to share
 * between threads. {@link #defaults()}: stream {@code None}, no copies, arrays with nulls refused, the shape
 * the array has (its recorded tensor shape, else one dimension).
 */
public final class DLPackExportOptions {
    /** What to do with an array that has nulls (DLPack tensors have no validity). */
    public enum Nulls {
        /** Refuse it with {@link InterchangeException}. The default. */
        REFUSE,
        /**
         * Export the values and hand the validity bitmap over beside the tensor ({@link DLPackExport#validity()});
         * the values behind null slots are whatever the buffer holds.
         */
        SEPARATE_VALIDITY
    }

    private static final DLPackExportOptions DEFAULTS = new DLPackExportOptions(null, null, false, Nulls.REFUSE, null);

    private final Long stream;
    private final MemorySegment producerStream;
    private final boolean allowCopy;
    private final Nulls nulls;
    private final long[] shape;

    private DLPackExportOptions(Long stream, MemorySegment producerStream, boolean allowCopy, Nulls nulls, long[] shape) {
        this.stream = stream;
        this.producerStream = producerStream;
        this.allowCopy = allowCopy;
        this.nulls = nulls;
        this.shape = shape;
    }

    /** {@return the defaults described above} */
    public static DLPackExportOptions defaults() {
        return DEFAULTS;
    }

    /**
     * {@return options with that stream}
     * @param stream the array-API {@code stream} argument of {@code __dlpack__}: the consumer's stream, which the
     *               export makes wait for the array's pending work; null for {@code None}; the rules per device
     *               type are those of {@link ArrayApiStream#consumerStream}
     */
    public DLPackExportOptions stream(Long stream) {
        return new DLPackExportOptions(stream, producerStream, allowCopy, nulls, shape);
    }

    /**
     * {@return options with that producer stream}
     * @param producer a stream of the array's device, the one its data was produced on, where the export records the event the
     *                 consumer's stream waits for when the array carries no sync event of its own; by default
     *                 the backend's default stream
     */
    public DLPackExportOptions producerStream(DeviceStream producer) {
        return new DLPackExportOptions(stream, producer.handle(), allowCopy, nulls, shape);
    }

    /**
     * {@return options with that choice}
     * @param allow whether the export may copy data whose Arrow layout DLPack cannot share (booleans, which
     *              Arrow packs into bits and DLPack stores as bytes); a copied export carries {@code IS_COPIED}
     */
    public DLPackExportOptions allowCopy(boolean allow) {
        return new DLPackExportOptions(stream, producerStream, allow, nulls, shape);
    }

    /**
     * {@return options with that choice}
     * @param handling what to do with arrays that have nulls
     */
    public DLPackExportOptions nulls(Nulls handling) {
        return new DLPackExportOptions(stream, producerStream, allowCopy, Objects.requireNonNull(handling), shape);
    }

    /**
     * {@return options with that shape}
     * @param extents the tensor shape, whose product must equal the array length; an empty shape makes a
     *                0-dimensional tensor of a length-1 array
     */
    public DLPackExportOptions shape(long... extents) {
        return new DLPackExportOptions(stream, producerStream, allowCopy, nulls, extents.clone());
    }

    /** {@return the array-API stream value, null for {@code None}} */
    public Long requestedStream() {
        return stream;
    }

    /** {@return the producer stream handle, or null for the backend's default stream} */
    public MemorySegment producerStreamHandle() {
        return producerStream;
    }

    /** {@return whether copies are allowed} */
    public boolean copyAllowed() {
        return allowCopy;
    }

    /** {@return what happens to arrays with nulls} */
    public Nulls nullHandling() {
        return nulls;
    }

    /** {@return the requested shape (a copy), or null for the array's own} */
    public long[] requestedShape() {
        return shape == null ? null : shape.clone();
    }
}
