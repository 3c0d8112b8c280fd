package dev.quiver.host;

/**
 * A {@code tin} interval value.
 *
 * @param months      months
 * @param days        days
 * @param nanoseconds nanoseconds
 */
public record IntervalMonthDayNano(int months, int days, long nanoseconds) {}
