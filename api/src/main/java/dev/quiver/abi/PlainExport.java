package dev.quiver.abi;

import dev.quiver.Copies;

/**
 * What an export to the plain Arrow C Data interface ({@code ArrowArray}, {@code ArrowArrayStream}, which
 * carry CPU memory only) does with an array that is not in CPU memory.
 */
public enum PlainExport {
    /**
     * The array is copied to host memory first ({@code Copies.toHost(DeviceArray)}, which waits for its sync
     * event), and the copy is exported. CPU arrays are exported as they are, without a copy.
     */
    COPY_TO_HOST,
    /**
     * The array is refused with an {@link IllegalArgumentException} naming its device (in a stream: its
     * {@code get_next} fails with {@code EINVAL} and that message); nothing is copied.
     */
    REFUSE
}
