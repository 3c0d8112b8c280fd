package dev.quiver.share;

/**
 * How a {@link ShareClient} receives.
 *
 * @param window           how many batches the receiver lets the owner send ahead of {@link ShareClient#next()}
 *                         (at least 1); more overlaps the owner's sending with the receiver's work
 * @param validateContents whether each batch's buffer contents are validated against the length of every buffer
 *                         as well as its structure (string offsets inside their data, and so on): reads every
 *                         offsets and views buffer, so costs time in proportion to the batch. Turn it off only for
 *                         an owner trusted as much as code in this process: offsets are then read as the owner
 *                         wrote them, and a reader that follows them is bounded by this process's readable memory
 *                         (as {@link dev.quiver.host.ArrayReader} checks), not by the batch's
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
