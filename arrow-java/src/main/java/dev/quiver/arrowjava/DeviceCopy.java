package dev.quiver.arrowjava;

import dev.quiver.DeviceArray;

/**
 * What {@link VectorImport} and {@link StreamImport} do with an array Arrow Java cannot take as it is. Arrow
 * Java reads its buffers through plain host addresses, so only {@code ARROW_DEVICE_CPU} arrays can become
 * Arrow Java vectors without a copy; and Arrow Java vectors can be written to, so a read-only array (one whose
 * producer forbids writes, see {@link DeviceArray#isReadOnly()}) cannot be shared with one. Such arrays need
 * a copy to the host, and the caller decides whether that copy may happen.
 */
public enum DeviceCopy {
    /**
     * Arrays not on the CPU are refused with an {@link IllegalArgumentException} that names the device, and
     * read-only arrays with a {@link dev.quiver.ReadOnlyArrayException}; nothing is copied and the array stays
     * open and owned by the caller.
     */
    REFUSE,
    /**
     * Arrays not on the CPU, and read-only arrays, are first copied to host memory with
     * {@link dev.quiver.Copies#toHost} (which waits on the host for the array's sync event), and the copy is
     * what Arrow Java receives. Writable CPU arrays still go across without a copy.
     */
    COPY_TO_HOST
}
