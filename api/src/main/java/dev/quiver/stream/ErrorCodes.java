package dev.quiver.stream;

import java.util.concurrent.CancellationException;

/** Maps what Java code threw to the {@code errno} code the C side sees, and to the text it can read. */
final class ErrorCodes {
    private ErrorCodes() {}

    /**
     * @param failure what a Java source, publisher or callback threw
     * @return its own code for a {@link StreamException}; EINVAL for bad arguments and invalid Arrow data;
     *         ENOMEM for out of memory; ENOSYS for unsupported operations; ECANCELED for cancellation;
     *         EIO for everything else (I/O failures included)
     */
    static int codeFor(Throwable failure) {
        if (failure instanceof StreamException e) {
            return e.code();
        }
        if (failure instanceof IllegalArgumentException) {
            return Errno.EINVAL.code();
        }
        if (failure instanceof OutOfMemoryError) {
            return Errno.ENOMEM.code();
        }
        if (failure instanceof UnsupportedOperationException) {
            return Errno.ENOSYS.code();
        }
        if (failure instanceof CancellationException) {
            return Errno.ECANCELED.code();
        }
        return Errno.EIO.code();
    }

    /** @return the message the C side gets: the exception's class and message */
    static String messageFor(Throwable failure) {
        if (failure instanceof StreamException e) {
            return e.detail().orElse(e.getMessage());
        }
        String message = failure.getMessage();
        return failure.getClass().getName() + (message == null ? "" : ": " + message);
    }
}
