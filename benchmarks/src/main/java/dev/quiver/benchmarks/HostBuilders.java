package dev.quiver.benchmarks;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.host.BinaryVectors;
import dev.quiver.host.FixedWidthVectors;
import dev.quiver.host.HostVector;
import dev.quiver.host.Validity;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.OutputTimeUnit;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT_UNALIGNED;
import static java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED;

/**
 * Host data to a CPU {@link DeviceArray}: one million values with about 10% nulls, built, turned into a
 * device array ({@code toDeviceArray}) and closed.
 * <ul>
 *   <li>{@link #int64Unboxed}, {@link #utf8Unboxed}: {@link FixedWidthVectors#int64} from a {@code long[]}
 *       and a {@code boolean[]} validity; {@link BinaryVectors#utf8} from one {@code byte[]} of UTF-8 and
 *       {@code int[]} offsets; {@link #binaryUnboxed}: the same bytes as binary, which skips the UTF-8 check;</li>
 *   <li>{@link #int64Boxed}, {@link #utf8Boxed}: the boxed builders {@link HostVector#int64(String, Long...)}
 *       and {@link HostVector#utf8(String, String...)} on the same values, already boxed;</li>
 *   <li>{@link #int64Copy}, {@link #utf8Copy}: the floor: the same buffers copied from Java arrays (the
 *       validity already bit-packed) into freshly allocated 64-byte aligned native memory, and freed.</li>
 * </ul>
 * Times are per million values. State is per benchmark thread.
 */
@OutputTimeUnit(TimeUnit.MILLISECONDS)
public class HostBuilders extends BenchmarkState {
    static final int ROWS = 1_000_000;
    private static final Devices NONE = Devices.cpuOnly();
    private static final String[] WORDS = {"", "a", "quiver", "héllo", "wörld", "arrow device data", "日本語"};

    private long[] longs;
    private boolean[] valid;
    private byte[] bitmap;
    private Long[] boxedLongs;
    private byte[] utf8;
    private int[] offsets;
    private String[] strings;

    /** Makes the values once: the benchmarks copy them. */
    @Override
    protected void setUp() {
        SplittableRandom random = new SplittableRandom(42);
        longs = new long[ROWS];
        valid = new boolean[ROWS];
        boxedLongs = new Long[ROWS];
        offsets = new int[ROWS + 1];
        strings = new String[ROWS];
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        for (int i = 0; i < ROWS; i++) {
            longs[i] = random.nextLong();
            valid[i] = random.nextInt(10) != 0;
            boxedLongs[i] = valid[i] ? longs[i] : null;
            String word = WORDS[random.nextInt(WORDS.length)];
            strings[i] = valid[i] ? word : null;
            data.writeBytes(word.getBytes(StandardCharsets.UTF_8));
            offsets[i + 1] = data.size();
        }
        utf8 = data.toByteArray();
        bitmap = new byte[(ROWS + 7) / 8];
        for (int i = 0; i < ROWS; i++) {
            bitmap[i >>> 3] |= (byte) (valid[i] ? 1 << (i & 7) : 0);
        }
    }

    /** @return the array's length, so the work is not dead */
    @Benchmark
    public long int64Unboxed() {
        try (DeviceArray array = FixedWidthVectors.int64("v", longs, Validity.of(valid)).toDeviceArray(NONE)) {
            return array.length();
        }
    }

    /** @return the array's length */
    @Benchmark
    public long int64Boxed() {
        try (DeviceArray array = HostVector.int64("v", boxedLongs).toDeviceArray(NONE)) {
            return array.length();
        }
    }

    /** @return a byte of the copy */
    @Benchmark
    public long int64Copy() {
        return copyToNative(new Buffer(longs, JAVA_LONG_UNALIGNED, ROWS), new Buffer(bitmap, JAVA_BYTE, bitmap.length));
    }

    /** @return the array's length */
    @Benchmark
    public long utf8Unboxed() {
        try (DeviceArray array = BinaryVectors.utf8("s", utf8, offsets, Validity.of(valid)).toDeviceArray(NONE)) {
            return array.length();
        }
    }

    /** @return the array's length */
    @Benchmark
    public long binaryUnboxed() {
        try (DeviceArray array = BinaryVectors.binary("s", utf8, offsets, Validity.of(valid)).toDeviceArray(NONE)) {
            return array.length();
        }
    }

    /** @return the array's length */
    @Benchmark
    public long utf8Boxed() {
        try (DeviceArray array = HostVector.utf8("s", strings).toDeviceArray(NONE)) {
            return array.length();
        }
    }

    /** @return a byte of the copy */
    @Benchmark
    public long utf8Copy() {
        return copyToNative(new Buffer(offsets, JAVA_INT_UNALIGNED, ROWS + 1), new Buffer(utf8, JAVA_BYTE, utf8.length),
                new Buffer(bitmap, JAVA_BYTE, bitmap.length));
    }

    /** A Java array to copy out: its first {@code count} elements, each laid out as {@code layout}. */
    private record Buffer(Object array, ValueLayout layout, int count) {}

    /** Copies each array into a fresh 64-byte aligned native buffer of its own; frees them all; returns a byte of each. */
    private static long copyToNative(Buffer... buffers) {
        long sum = 0;
        try (Arena arena = Arena.ofShared()) {
            for (Buffer buffer : buffers) {
                MemorySegment copy = arena.allocate(Math.max(1, buffer.count() * buffer.layout().byteSize()), 64);
                MemorySegment.copy(buffer.array(), 0, copy, buffer.layout(), 0, buffer.count());
                sum += copy.get(JAVA_BYTE, 0);
            }
        }
        return sum;
    }
}
