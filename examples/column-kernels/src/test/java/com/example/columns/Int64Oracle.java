package com.example.columns;

import java.util.Arrays;
import java.util.Random;

/**
 * Plain-Java answers for int64 columns held as {@code Long[]} (a {@code null} is a null row), and random
 * columns to ask about. Stateless.
 */
final class Int64Oracle {
    private Int64Oracle() {
    }

    /** @return {@code rows} values in about [-10^6, 10^6], every {@code nullEvery}-th row on average null */
    static Long[] randomColumn(long seed, int rows, int nullEvery) {
        Random random = new Random(seed);
        Long[] values = new Long[rows];
        for (int i = 0; i < rows; i++) {
            values[i] = nullEvery > 0 && random.nextInt(nullEvery) == 0 ? null : random.nextLong(-1_000_000, 1_000_001);
        }
        return values;
    }

    /** @return the wrapping sum of the non-null values of {@code values[from .. from + length)} */
    static long sum(Long[] values, int from, int length) {
        long total = 0;
        for (int i = from; i < from + length; i++) {
            if (values[i] != null) {
                total += values[i];
            }
        }
        return total;
    }

    /** @return the non-null values of {@code values[from .. from + length)} greater than {@code threshold} */
    static long[] greaterThan(Long[] values, int from, int length, long threshold) {
        return Arrays.stream(values, from, from + length)
                .filter(v -> v != null && v > threshold)
                .mapToLong(Long::longValue)
                .toArray();
    }
}
