package dev.quiver.device.cuda;

/** Why the CUDA driver cannot be used; its message is a probe reason. */
final class CudaUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    CudaUnavailableException(String reason) {
        super(reason, null, false, false);
    }
}
