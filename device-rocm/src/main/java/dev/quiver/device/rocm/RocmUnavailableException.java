package dev.quiver.device.rocm;

/** Why the HIP runtime cannot be used; its message is a probe reason. */
final class RocmUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    RocmUnavailableException(String reason) {
        super(reason, null, false, false);
    }
}
