package dev.quiver.cai;

import dev.quiver.InterchangeException;

/**
 * A legal request that Quiver will not carry out as asked: a type the interface or Arrow cannot share
 * without a copy (bit-packed booleans, complex numbers, big-endian data), an opaque buffer handle where the
 * interface needs an address, nulls without a mask, a mask or strided layout whose conversion the caller did
 * not allow. Nothing was described; on import the caller's release action has already run, exactly once.
 * The field path is the key that decided it.
 */
public final class CaiRefusedException extends InterchangeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception naming what decided the refusal and why.
     *
     * @param keyPath what decided the refusal
     * @param reason  why, as a sentence fragment that says what would work instead
     */
    public CaiRefusedException(String keyPath, String reason) {
        super(keyPath, reason);
    }
}
