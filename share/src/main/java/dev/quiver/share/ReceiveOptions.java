package dev.quiver.share;

/**
 * How a {@link ShareClient} receives.
 *
 * @param window           how many batches the receiver lets the owner send ahead of {@link ShareClient#next()}
 *                         (at least 1); more overlaps the owner's sending with the receiver's work
 * @param validateContents whether each batch's buffer contents are validated as well as its structure
 *                         (string offsets inside their data, and so on): reads every offsets and views buffer, so
 *                         costs time in proportion to the batch; without it, reading through
 *                         {@link dev.quiver.host.ArrayReader} with untrusted contents still checks each read
 */
public record ReceiveOptions(int window, boolean validateContents) {
    /** Checks the window. */
    public ReceiveOptions {
        if (window < 1) {
            throw new IllegalArgumentException("the window is at least 1, not " + window);
        }
    }

    /** {@return a window of 8 batches, contents validated} */
    public static ReceiveOptions defaults() {
        return new ReceiveOptions(8, true);
    }
}
