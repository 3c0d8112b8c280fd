package dev.quiver.cai;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceStream;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * How to describe an array with the CUDA Array Interface. Immutable: each method returns a new instance;
 * safe to share between threads. {@link #defaults()}: no stream (the data is complete when the descriptor is
 * made), no mask, the array's own shape.
 */
public final class CaiDescribeOptions {
    private static final CaiDescribeOptions DEFAULTS = new CaiDescribeOptions(null, null, null);

    private final MemorySegment stream;
    private final DeviceArray mask;
    private final long[] shape;

    private CaiDescribeOptions(MemorySegment stream, DeviceArray mask, long[] shape) {
        this.stream = stream;
        this.mask = mask;
        this.shape = shape;
    }

    /** {@return the defaults described above} */
    public static CaiDescribeOptions defaults() {
        return DEFAULTS;
    }

    /**
     * {@return options with that stream}
     * @param producer the stream the array's data is produced on; the descriptor names it in {@code stream}
     *                 (the default stream, NULL, as 1: CUDA's legacy default) and a consumer synchronises on it.
     *                 The stream must outlive the descriptor's use.
     */
    public CaiDescribeOptions stream(DeviceStream producer) {
        return new CaiDescribeOptions(producer.handle(), mask, shape);
    }

    /**
     * {@return options with that mask}
     * @param validityMask a one-byte integer array on the same device, of the same length and without nulls,
     *                     non-zero where the described array is valid (see
     *                     {@link CudaArrayInterface#validityMask}); described as the {@code mask}. It must stay
     *                     open while the descriptor is used.
     */
    public CaiDescribeOptions mask(DeviceArray validityMask) {
        return new CaiDescribeOptions(stream, Objects.requireNonNull(validityMask), shape);
    }

    /**
     * {@return options with that shape}
     * @param extents the shape, whose product must equal the array length
     */
    public CaiDescribeOptions shape(long... extents) {
        return new CaiDescribeOptions(stream, mask, extents.clone());
    }

    /** {@return the producer stream handle, or null for none} */
    public MemorySegment streamHandle() {
        return stream;
    }

    /** {@return the mask array, or null} */
    public DeviceArray maskArray() {
        return mask;
    }

    /** {@return the requested shape (a copy), or null for the array's own} */
    public long[] requestedShape() {
        return shape == null ? null : shape.clone();
    }
}
