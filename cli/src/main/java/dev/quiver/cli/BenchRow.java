package dev.quiver.cli;

import dev.quiver.cli.bench.Comparison;

/**
 * One line of {@code quiver bench}: what was timed, against which baseline, and the comparison. Immutable.
 *
 * @param benchmark  what Quiver did
 * @param baseline   what it is compared with ({@code C}, {@code memcpy}, ...)
 * @param comparison both times and their ratio
 */
record BenchRow(String benchmark, String baseline, Comparison comparison) {}
