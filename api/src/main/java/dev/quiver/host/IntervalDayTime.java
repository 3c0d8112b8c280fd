package dev.quiver.host;

/**
 * A {@code tiD} interval value.
 *
 * @param days         days
 * @param milliseconds milliseconds
 */
public record IntervalDayTime(int days, int milliseconds) {}
