package dev.quiver.benchmarks.handoff;

import dev.quiver.DeviceType;

/**
 * What {@link VulkanHandoffVersusFlight} measured for one batch size on lavapipe. Immutable.
 *
 * @param rows        rows of the int64 batch
 * @param handoff     share handoffs onto this JVM's lavapipe: from asking a fresh connection for the batch to
 *                    holding it (BATCH with the {@code VULKAN_FD} descriptors, the memory imported, the array
 *                    built) and its last value copied to the host and read
 * @param withConnect the same handoffs timed from the connection's start
 * @param bytes       fetches through {@code DeviceFlightClient} as bytes ({@code DoGet} on loopback; the owner
 *                    copies the Vulkan batch to the host, this JVM receives it on the host), to the batch in hand
 *                    and its last value read
 * @param zeroCopy    how many of the handoffs arrived with no copy, as the owner's device memory
 * @param arrivedOn   the device type of the arrays the handoffs received
 */
record VulkanHandoffRow(long rows, Samples handoff, Samples withConnect, Samples bytes, int zeroCopy, DeviceType arrivedOn) {
    /** {@return bytes of the batch's values} */
    long byteSize() {
        return rows * Long.BYTES;
    }

    /** {@return the median of {@code DoGet} over the median share handoff} */
    double bytesOverHandoff() {
        return bytes.medianMillis() / handoff.medianMillis();
    }

    /** {@return how the handoffs arrived, for example {@code 20 of 20 zero-copy, VULKAN}} */
    String arrived() {
        return zeroCopy + " of " + handoff.count() + " zero-copy, " + arrivedOn;
    }
}
