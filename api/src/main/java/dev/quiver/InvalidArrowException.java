package dev.quiver;

/**
 * An imported struct broke a rule of the Arrow C Data or C Device Data Interface. The message names the
 * field path (for example {@code children[2].buffers[1]}, or {@code schema.children[0].format}) and the
 * rule. When this is thrown from an import, the foreign release callbacks have already been called,
 * exactly once.
 */
public final class InvalidArrowException extends InterchangeException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception naming the field at fault and the rule it breaks.
     *
     * @param fieldPath the path of the offending field, from the imported struct
     * @param rule      the rule broken, as a sentence fragment
     */
    public InvalidArrowException(String fieldPath, String rule) {
        super(fieldPath, rule);
    }
}
