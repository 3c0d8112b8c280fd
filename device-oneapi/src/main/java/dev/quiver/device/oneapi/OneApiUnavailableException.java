package dev.quiver.device.oneapi;

/** Why Level Zero cannot be used; its message is a probe reason. */
final class OneApiUnavailableException extends Exception {
    private static final long serialVersionUID = 1L;

    OneApiUnavailableException(String reason) {
        super(reason, null, false, false);
    }
}
