package dev.quiver.share.internal.posix;

/**
 * A C library call that failed, with the call's name and its {@code errno}. Unchecked: the sharing layer above
 * turns it into its own exception with the peer named.
 */
public final class SystemCallException extends RuntimeException {
    private static final long serialVersionUID = 1L;
    private final int errno;

    SystemCallException(String call, int errno, String context) {
        super(call + " failed: " + Errno.describe(errno) + (context.isEmpty() ? "" : " (" + context + ")"));
        this.errno = errno;
    }

    /** {@return the {@code errno} of the failed call} */
    public int errno() {
        return errno;
    }
}
