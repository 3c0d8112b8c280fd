package dev.quiver.cai;

import dev.quiver.InterchangeException;

/**
 * A CUDA Array Interface descriptor breaks the specification: a missing or mistyped key, a version other
 * than 2 or 3, a negative extent, a malformed {@code typestr}, {@code stream} 0, a NULL pointer with
 * elements. The field path is the key path, for example {@code shape[1]} or {@code mask.typestr}. When this
 * is thrown from an import, the caller's release action has already run, exactly once.
 */
public final class InvalidCaiException extends InterchangeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception naming the key at fault and the rule it breaks.
     *
     * @param keyPath the offending key, for example {@code data[0]}
     * @param rule    the rule broken, as a sentence fragment
     */
    public InvalidCaiException(String keyPath, String rule) {
        super(keyPath, rule);
    }
}
