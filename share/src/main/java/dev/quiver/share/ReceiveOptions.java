package dev.quiver.share;

import java.time.Duration;

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
 *                         (as {@link dev.quiver.host.ArrayReader} checks), not by the batch's. A device array
 *                         is copied to the host for the check only if its schema has such contents (offsets,
 *                         views, union ids, dictionary indices, run ends); one of fixed-width columns only is
 *                         taken as it is, with no copy (its null counts are not recounted)
 * @param maxRegions       how many of the owner's memory files the receiver keeps mapped for later batches (1 to
 *                         65,536); the owner retires the least recently used ones to stay within it. A region a
 *                         received array still uses stays mapped until the array is closed
 * @param maxMappedBytes   how many bytes those memory files may have together (at least 1); an array whose memory
 *                         alone is larger cannot be sent to this receiver
 * @param timeout          how long the receiver waits for the owner's next message, in the handshake and in
 *                         {@link ShareClient#next()}, before it gives up on the owner (a {@link ShareException} of
 *                         reason {@link ShareException.Reason#TIMEOUT}, and the connection is closed); zero (the
 *                         default) waits as long as the owner is alive. A whole millisecond at least
 * @param handshakeTimeout how long the receiver waits for the owner's WELCOME after its HELLO (or {@code timeout},
 *                         where that is set and shorter) before it refuses the owner: an
 *                         ERROR {@code PROTOCOL} is sent, and {@link ShareClient#connect} throws a
 *                         {@link ShareException} of reason {@link ShareException.Reason#TIMEOUT}; 10 seconds by
 *                         default, as the owner's bound on HELLO ({@link ShareServer#handshakeTimeout}). A whole
 *                         millisecond at least
 */
public record ReceiveOptions(int window, boolean validateContents, int maxRegions, long maxMappedBytes, Duration timeout,
                             Duration handshakeTimeout) {
    /** The default of {@link #maxRegions()}. */
    public static final int DEFAULT_MAX_REGIONS = 1024;
    /** The default of {@link #maxMappedBytes()}: 64 GiB. */
    public static final long DEFAULT_MAX_MAPPED_BYTES = 64L << 30;
    /** The default of {@link #handshakeTimeout()}: 10 seconds. */
    public static final Duration DEFAULT_HANDSHAKE_TIMEOUT = Duration.ofSeconds(10);

    /** Checks the window, the bound of the mappings kept and the timeouts. */
    public ReceiveOptions {
        if (timeout == null || timeout.isNegative() || !timeout.isZero() && timeout.toMillis() == 0) {
            throw new IllegalArgumentException("the timeout is zero (none) or at least a millisecond, not " + timeout);
        }
        if (handshakeTimeout == null || handshakeTimeout.toMillis() <= 0) {
            throw new IllegalArgumentException("the handshake timeout is at least a millisecond, not " + handshakeTimeout);
        }
        if (window < 1) {
            throw new IllegalArgumentException("the window is at least 1, not " + window);
        }
        if (maxRegions < 1 || maxRegions > 65_536 || maxMappedBytes < 1) {
            throw new IllegalArgumentException("the receiver keeps 1 to 65536 regions of at least 1 byte, not "
                    + maxRegions + " regions of " + maxMappedBytes + " bytes");
        }
    }

    /**
     * Options with the default {@link #handshakeTimeout()}.
     *
     * @param window           see {@link #window()}
     * @param validateContents see {@link #validateContents()}
     * @param maxRegions       see {@link #maxRegions()}
     * @param maxMappedBytes   see {@link #maxMappedBytes()}
     * @param timeout          see {@link #timeout()}
     */
    public ReceiveOptions(int window, boolean validateContents, int maxRegions, long maxMappedBytes, Duration timeout) {
        this(window, validateContents, maxRegions, maxMappedBytes, timeout, DEFAULT_HANDSHAKE_TIMEOUT);
    }

    /**
     * Options without a timeout.
     *
     * @param window           see {@link #window()}
     * @param validateContents see {@link #validateContents()}
     * @param maxRegions       see {@link #maxRegions()}
     * @param maxMappedBytes   see {@link #maxMappedBytes()}
     */
    public ReceiveOptions(int window, boolean validateContents, int maxRegions, long maxMappedBytes) {
        this(window, validateContents, maxRegions, maxMappedBytes, Duration.ZERO);
    }

    /**
     * Options with the default bound of the mappings kept ({@value #DEFAULT_MAX_REGIONS} regions, 64 GiB).
     *
     * @param window           see {@link #window()}
     * @param validateContents see {@link #validateContents()}
     */
    public ReceiveOptions(int window, boolean validateContents) {
        this(window, validateContents, DEFAULT_MAX_REGIONS, DEFAULT_MAX_MAPPED_BYTES);
    }

    /** {@return a window of 8 batches, contents validated, the default bound of the mappings kept} */
    public static ReceiveOptions defaults() {
        return new ReceiveOptions(8, true);
    }

    /**
     * {@return these options with another timeout}
     * @param timeout see {@link #timeout()}
     */
    public ReceiveOptions withTimeout(Duration timeout) {
        return new ReceiveOptions(window, validateContents, maxRegions, maxMappedBytes, timeout, handshakeTimeout);
    }

    /**
     * {@return these options with another handshake timeout}
     * @param handshakeTimeout see {@link #handshakeTimeout()}
     */
    public ReceiveOptions withHandshakeTimeout(Duration handshakeTimeout) {
        return new ReceiveOptions(window, validateContents, maxRegions, maxMappedBytes, timeout, handshakeTimeout);
    }

    /** {@return how long the receiver waits for WELCOME: the shorter of the two timeouts set} */
    long handshakeMillis() {
        return timeout.isZero() ? handshakeTimeout.toMillis() : Math.min(timeout.toMillis(), handshakeTimeout.toMillis());
    }
}
