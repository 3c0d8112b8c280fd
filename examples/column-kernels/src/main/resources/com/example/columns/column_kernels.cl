/*
 * Int64 column kernels. Row i of a column is slot (offset + i) of its buffers: the array offset travels as
 * an argument, never as arithmetic on a cl_mem. A column without a validity bitmap passes its values
 * buffer in the validity argument and has_validity 0 (no NULL buffer arguments).
 * Sums use unsigned arithmetic, so overflow wraps as two's complement, exactly as in Java.
 */

inline int row_is_valid(__global const uchar *validity, int has_validity, ulong slot) {
    return !has_validity || ((validity[slot >> 3] >> (slot & 7)) & 1);
}

/* partial[g] = sum of the valid rows g, g + G, g + 2G, ... where G is the global size. */
__kernel void sum_strided(__global const long *values, __global const uchar *validity, int has_validity,
                          ulong offset, ulong length, __global long *partial) {
    ulong g = get_global_id(0);
    ulong stride = get_global_size(0);
    ulong total = 0;
    for (ulong i = g; i < length; i += stride) {
        ulong slot = offset + i;
        if (row_is_valid(validity, has_validity, slot)) {
            total += (ulong) values[slot];
        }
    }
    partial[g] = (long) total;
}

/* counts[g] = number of valid rows greater than threshold among rows [g * chunk, (g + 1) * chunk). */
__kernel void count_greater(__global const long *values, __global const uchar *validity, int has_validity,
                            ulong offset, ulong length, ulong chunk, long threshold,
                            __global ulong *counts) {
    ulong g = get_global_id(0);
    ulong end = min((g + 1) * chunk, length);
    ulong count = 0;
    for (ulong i = g * chunk; i < end; i++) {
        ulong slot = offset + i;
        if (row_is_valid(validity, has_validity, slot) && values[slot] > threshold) {
            count++;
        }
    }
    counts[g] = count;
}

/* One work item: counts[g] becomes the sum of counts[0 .. g), and counts[groups] the total. */
__kernel void exclusive_scan(__global ulong *counts, ulong groups) {
    ulong running = 0;
    for (ulong g = 0; g < groups; g++) {
        ulong count = counts[g];
        counts[g] = running;
        running += count;
    }
    counts[groups] = running;
}

/* Writes the rows count_greater counted, in row order, from out[starts[g]] on. */
__kernel void scatter_greater(__global const long *values, __global const uchar *validity, int has_validity,
                              ulong offset, ulong length, ulong chunk, long threshold,
                              __global const ulong *starts, __global long *out) {
    ulong g = get_global_id(0);
    ulong end = min((g + 1) * chunk, length);
    ulong next = starts[g];
    for (ulong i = g * chunk; i < end; i++) {
        ulong slot = offset + i;
        long value = values[slot];
        if (row_is_valid(validity, has_validity, slot) && value > threshold) {
            out[next++] = value;
        }
    }
}
