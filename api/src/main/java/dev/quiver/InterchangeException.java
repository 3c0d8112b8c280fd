package dev.quiver;

/**
 * Data could not be taken or handed over through an interchange protocol (the Arrow C Device Data Interface,
 * DLPack, the CUDA Array Interface): the input broke its protocol, or the request was legal but refused (a copy
 * that was not allowed, a flag Quiver cannot honour). DLPack tensors and CUDA Array Interface descriptors fail
 * with this class itself; Arrow C structs with its subclass {@link InvalidArrowException}. The message names the
 * field path (for example {@code children[2].buffers[1]}, {@code dl_tensor.strides[0]} or {@code mask.typestr})
 * and the rule or the reason, which says what would work instead. Whatever the exception, ownership rules held:
 * on import, the foreign memory was already given back exactly once; on export, nothing was moved. Immutable.
 */
public class InterchangeException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    /** The offending field or key. */
    private final String fieldPath;

    /**
     * An exception naming the field at fault and the rule it breaks.
     *
     * @param fieldPath the offending field or key
     * @param rule      the rule broken, or why the request was refused, as a sentence fragment
     */
    public InterchangeException(String fieldPath, String rule) {
        super(fieldPath + ": " + rule);
        this.fieldPath = fieldPath;
    }

    /** {@return the offending field or key, for example {@code dl_tensor.byte_offset}} */
    public String fieldPath() {
        return fieldPath;
    }
}
