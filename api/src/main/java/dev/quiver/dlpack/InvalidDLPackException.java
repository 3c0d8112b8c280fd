package dev.quiver.dlpack;

import dev.quiver.InterchangeException;

/**
 * An imported DLPack tensor breaks a rule of DLPack (an unknown device type or dtype code, a major version
 * other than 1, a NULL shape, a negative extent, NULL strides where the version requires them, ...). The
 * field path names the field, for example {@code dl_tensor.shape[1]}. When this is thrown from an import the
 * tensor's deleter has already been called, exactly once (unless it was NULL).
 */
public final class InvalidDLPackException extends InterchangeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception naming the field at fault and the rule it breaks.
     *
     * @param fieldPath the offending field, for example {@code dl_tensor.dtype.code}
     * @param rule      the rule broken, as a sentence fragment
     */
    public InvalidDLPackException(String fieldPath, String rule) {
        super(fieldPath, rule);
    }
}
