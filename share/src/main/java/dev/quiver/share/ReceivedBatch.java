package dev.quiver.share;

import dev.quiver.DeviceArray;

/**
 * One array received from another process, and how it came.
 *
 * @param array   the array, an ordinary CPU {@link DeviceArray} owned by the caller: closing it (and every view
 *                of it) unmaps its memory and tells the owner, which then lets go of its side
 * @param copied  false when the array reads the owner's own memory (zero-copy), true when the owner copied it
 *                into shared memory for this handoff (its memory was not shareable)
 * @param batchId the batch's id in the connection
 */
public record ReceivedBatch(DeviceArray array, boolean copied, long batchId) {
    /** {@return whether the array reads the owner's memory itself, with no copy made for the handoff} */
    public boolean isZeroCopy() {
        return !copied;
    }
}
