package dev.quiver.cli.bench;

/**
 * Quiver's time beside a baseline's, measured in alternating samples so that both see the same load, and
 * their ratio: the median of the ratios of neighbouring samples, with its spread. Immutable; thread-safe.
 *
 * @param quiver   Quiver's time per operation
 * @param baseline the baseline's time per operation
 * @param ratio    Quiver's time over the baseline's, per pair of samples
 */
public record Comparison(Measure quiver, Measure baseline, Measure ratio) {
    /** A ratio whose middle half of pair ratios spreads wider than this (relative to the median) is flagged. */
    public static final double WIDE_SPREAD = 0.10;

    /** @return whether the ratio's spread is too wide to trust the figure (see {@link #WIDE_SPREAD}) */
    public boolean wide() {
        return ratio.spread() > WIDE_SPREAD;
    }

    /** @return whether both warm-ups ended with settled timings */
    public boolean settled() {
        return quiver.settled() && baseline.settled();
    }

    /** @return empty when the figures can be trusted, else what is wrong with them */
    public String flag() {
        String spread = wide() ? String.format("WIDE SPREAD (+-%.0f%%)", 50 * ratio.spread()) : "";
        String settling = settled() ? "" : "UNSETTLED";
        return (spread + " " + settling).strip();
    }
}
