package dev.quiver;

/**
 * A write to a read-only {@link DeviceArray} was attempted: its producer forbids writes to its memory (for
 * example a DLPack tensor flagged {@code READ_ONLY}). Nothing was written.
 */
public final class ReadOnlyArrayException extends UnsupportedOperationException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception with the given message.
     *
     * @param message which array, and why it is read-only
     */
    public ReadOnlyArrayException(String message) {
        super(message);
    }
}
