package dev.quiver.benchmarks.handoff;

import java.util.Arrays;

/**
 * Timings of one measurement, in nanoseconds, with their median and minimum. Immutable.
 *
 * @param nanos the timings, at least one; the record keeps a sorted copy
 */
record Samples(long[] nanos) {
    /** Keeps a sorted copy. @throws IllegalArgumentException if there is no timing */
    Samples {
        if (nanos.length == 0) {
            throw new IllegalArgumentException("a measurement needs at least one timing");
        }
        nanos = nanos.clone();
        Arrays.sort(nanos);
    }

    /** {@return the median in milliseconds (the mean of the middle two of an even count)} */
    double medianMillis() {
        int n = nanos.length;
        return (n % 2 == 1 ? nanos[n / 2] : (nanos[n / 2 - 1] + nanos[n / 2]) / 2.0) / 1e6;
    }

    /** {@return the minimum in milliseconds} */
    double minMillis() {
        return nanos[0] / 1e6;
    }

    /** {@return how many timings there are} */
    int count() {
        return nanos.length;
    }
}
