package dev.quiver.spi;

/**
 * The opaque bytes of a driver's inter-process handle, as {@link IpcMemoryHandle} and {@link IpcEventHandle}
 * hold them: checked against the length their mechanism gives and copied, so that a record never shares its
 * array with a caller. Stateless.
 */
final class HandleBytes {
    private HandleBytes() {}

    /**
     * @param mechanism the handle's mechanism, for the message
     * @param handle    the bytes a caller gave
     * @param length    the length the mechanism gives them
     * @param what      what they are, for the message ({@code "handles"}, {@code "event handles"})
     * @return a copy of the bytes
     * @throws IllegalArgumentException if they are null or of another length
     */
    static byte[] copyOf(IpcMechanism mechanism, byte[] handle, int length, String what) {
        if (handle == null || handle.length != length) {
            throw new IllegalArgumentException(mechanism + " " + what + " are " + length + " bytes, not "
                    + (handle == null ? "null" : handle.length));
        }
        return handle.clone();
    }
}
