package dev.quiver.share.internal.protocol;

import dev.quiver.share.internal.posix.Memfd;

/**
 * One received message: its type, body and the descriptors that came with it, which the receiver owns until
 * it passes them on or calls {@link #closeDescriptors()}.
 *
 * @param type the message type
 * @param body the body bytes
 * @param fds  the descriptors that arrived with the header
 */
public record Message(MessageType type, byte[] body, int[] fds) {
    /** Closes every descriptor that came with this message. */
    public void closeDescriptors() {
        for (int fd : fds) {
            Memfd.close(fd);
        }
    }

    /**
     * Checks that no descriptor came with a message that carries none, closing any that did.
     *
     * @return this message
     * @throws ProtocolException if descriptors came
     */
    public Message withoutDescriptors() {
        if (fds.length > 0) {
            closeDescriptors();
            throw new ProtocolException(ErrorCode.PROTOCOL, type + " carried " + fds.length + " descriptor(s); it carries none");
        }
        return this;
    }
}
