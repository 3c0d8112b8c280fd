package dev.quiver.internal.validate;

/**
 * The kinds of fault the validators find in imported structs, named after the member of the Arrow C Data or
 * C Device Data Interface they concern. They describe the input only: an import turns a fault into an
 * exception of its caller's choosing, and a conformance checker maps each kind to a rule of its own. An
 * immutable enum, safe from any thread.
 */
public enum Fault {
    /** An ArrowArray (or one of its children) is already released. */
    ARRAY_RELEASED,
    /** ArrowArray nesting is deeper than a consumer accepts. */
    ARRAY_DEPTH,
    /** {@code length} is negative. */
    ARRAY_LENGTH,
    /** {@code offset} is negative, or {@code offset + length} overflows. */
    ARRAY_OFFSET,
    /** {@code null_count} is out of range for the length or the type. */
    ARRAY_NULL_COUNT,
    /** {@code n_buffers} does not match the format. */
    ARRAY_BUFFER_COUNT,
    /** {@code buffers}, or a buffer the type requires, is NULL. */
    ARRAY_BUFFER_NULL,
    /** {@code n_children} does not match the schema. */
    ARRAY_CHILD_COUNT,
    /** {@code children}, or a child pointer, is NULL. */
    ARRAY_CHILD_NULL,
    /** A child is shorter than its parent needs. */
    ARRAY_CHILD_LENGTH,
    /** A run-end encoded array's run ends are missing, null or of the wrong length. */
    ARRAY_RUN_ENDS,
    /** {@code dictionary} is set where the schema has none, or missing where it has one. */
    ARRAY_DICTIONARY,
    /** A buffer's size cannot be known: the offsets or sizes it follows from are negative or overflow. */
    ARRAY_BUFFER_SIZE,
    /** An ArrowSchema (or one of its children) is already released. */
    SCHEMA_RELEASED,
    /** ArrowSchema nesting is deeper than a consumer accepts. */
    SCHEMA_DEPTH,
    /** {@code format} is NULL or not a valid format string. */
    SCHEMA_FORMAT,
    /** {@code format} or {@code name} is not a NUL-terminated string within the length limit. */
    SCHEMA_STRING,
    /** {@code flags} has bits the interface does not define. */
    SCHEMA_FLAGS,
    /** A dictionary-encoded field's index type is not an integer. */
    SCHEMA_DICTIONARY,
    /** {@code n_children} does not match the format. */
    SCHEMA_CHILD_COUNT,
    /** {@code children}, or a child pointer, is NULL. */
    SCHEMA_CHILD_NULL,
    /** A child's type is not one its parent allows. */
    SCHEMA_CHILD_TYPE,
    /** {@code metadata} is not a well-formed key/value encoding. */
    SCHEMA_METADATA,
    /** A pointer the validator must follow does not point to readable host memory. */
    POINTER_UNREADABLE
}
