package dev.quiver.benchmarks.handoff;

/**
 * What {@link HandoffVersusFlight} measured for one batch size. Immutable.
 *
 * @param rows        rows of the int64 batch
 * @param handoff     share handoffs: from asking a fresh connection for the batch to holding it and reading its
 *                    last value (BATCH with the memory file, {@code fstat}, {@code mmap}, building the array)
 * @param withConnect the same handoffs timed from the connection's start (socket, credentials, HELLO, WELCOME,
 *                    SCHEMA included)
 * @param sameHost    fetches through {@code DeviceFlightClient} preferring the same host: the Flight action, then
 *                    the share socket, zero-copy
 * @param bytes       fetches through {@code DeviceFlightClient} as bytes ({@code DoGet} on loopback), to the batch
 *                    in hand and its last value read
 */
record HandoffRow(long rows, Samples handoff, Samples withConnect, Samples sameHost, Samples bytes) {
    /** {@return bytes of the batch's values} */
    long byteSize() {
        return rows * Long.BYTES;
    }

    /** {@return the median of {@code DoGet} over the median share handoff} */
    double bytesOverHandoff() {
        return bytes.medianMillis() / handoff.medianMillis();
    }

    /** {@return the median of {@code DoGet} over the median same-host fetch} */
    double bytesOverSameHost() {
        return bytes.medianMillis() / sameHost.medianMillis();
    }
}
