package com.example.columns;

/**
 * A kernel could not run on a column's device: an OpenCL call failed (the message names the call and the
 * error, and for a failed build includes the compiler's log). Whatever the failing call had allocated was
 * released before this was thrown.
 */
public final class ColumnKernelsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** @param message what failed, naming the vendor call and its error */
    public ColumnKernelsException(String message) {
        super(message);
    }
}
