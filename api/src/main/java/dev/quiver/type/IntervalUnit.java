package dev.quiver.type;

/** The layout of an interval value. */
public enum IntervalUnit {
    /** int32 months ({@code tiM}). */
    YEAR_MONTH('M', 32),
    /** int32 days + int32 milliseconds ({@code tiD}). */
    DAY_TIME('D', 64),
    /** int32 months + int32 days + int64 nanoseconds ({@code tin}). */
    MONTH_DAY_NANO('n', 128);

    private final char letter;
    private final int bitWidth;

    IntervalUnit(char letter, int bitWidth) {
        this.letter = letter;
        this.bitWidth = bitWidth;
    }

    /** {@return the letter the format strings use} */
    public char letter() {
        return letter;
    }

    /** {@return bits per value} */
    public int bitWidth() {
        return bitWidth;
    }
}
