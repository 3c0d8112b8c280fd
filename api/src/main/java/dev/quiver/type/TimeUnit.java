package dev.quiver.type;

/** The unit of a time, timestamp or duration, with its format-string letter. */
public enum TimeUnit {
    /** Seconds ({@code s}). */
    SECOND('s'),
    /** Milliseconds ({@code m}). */
    MILLISECOND('m'),
    /** Microseconds ({@code u}). */
    MICROSECOND('u'),
    /** Nanoseconds ({@code n}). */
    NANOSECOND('n');

    private final char letter;

    TimeUnit(char letter) {
        this.letter = letter;
    }

    /** {@return the letter the C Data Interface format strings use} */
    public char letter() {
        return letter;
    }

    static TimeUnit of(char letter, String format) {
        for (TimeUnit unit : values()) {
            if (unit.letter == letter) {
                return unit;
            }
        }
        throw FormatString.malformed(format, "unknown time unit '" + letter + "'");
    }
}
