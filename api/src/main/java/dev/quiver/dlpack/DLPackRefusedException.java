package dev.quiver.dlpack;

import dev.quiver.InterchangeException;

/**
 * A legal request that Quiver will not carry out as asked, the counterpart of Python's {@code BufferError}
 * in the array API: an array type or device DLPack cannot describe, a layout that would need a copy the
 * caller did not allow (bit-packed booleans, strided or negative-stride tensors), nulls the caller did not
 * ask to receive separately, a read-only array through the flagless legacy struct. Nothing was exported or
 * moved; on import the tensor's deleter has already been called, exactly once. The field path names what
 * decided it ({@code array.type}, {@code dl_tensor.strides[0]}, ...).
 */
public final class DLPackRefusedException extends InterchangeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception naming what decided the refusal and why.
     *
     * @param fieldPath what decided the refusal
     * @param reason    why, as a sentence fragment that says what would work instead
     */
    public DLPackRefusedException(String fieldPath, String reason) {
        super(fieldPath, reason);
    }
}
