package dev.quiver.arrowjava;

import dev.quiver.DeviceArray;

/**
 * What {@link VectorImport} and {@link StreamImport} do with an array whose memory is not on the CPU. Arrow
 * Java reads its buffers through plain host addresses, so only {@code ARROW_DEVICE_CPU} arrays can become
 * Arrow Java vectors without a copy; any other array needs a copy to the host, and the caller decides
 * whether that copy may happen.
 */
public enum DeviceCopy {
    /**
     * Arrays not on the CPU are refused with an {@link IllegalArgumentException} that names the device;
     * nothing is copied and the array stays open and owned by the caller.
     */
    REFUSE,
    /**
     * Arrays not on the CPU are first copied to host memory with {@link DeviceArray#copyToHost()} (which waits
     * on the host for the array's sync event), and the copy is what Arrow Java receives. CPU arrays still go
     * across without a copy.
     */
    COPY_TO_HOST
}
