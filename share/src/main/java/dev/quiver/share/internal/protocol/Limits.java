package dev.quiver.share.internal.protocol;

/** What a receiver accepts of one message (docs/SHARING.md, "Limits"); anything past them is refused with {@link ErrorCode#LIMIT}. */
public final class Limits {
    /** Bytes of one message body. */
    public static final int MAX_BODY = 16 << 20;
    /** Handles, and so descriptors, of one batch ({@code SCM_MAX_FD}). */
    public static final int MAX_HANDLES = 253;
    /** Array nodes of one batch, and fields of one schema. */
    public static final int MAX_NODES = 65_536;
    /** Buffers of one node (variadic buffers of view types included). */
    public static final int MAX_BUFFERS = 65_536;
    /** Nesting depth of a schema (children and dictionaries). */
    public static final int MAX_DEPTH = 64;
    /** Bytes of one string (name, format, metadata key or value, error reason). */
    public static final int MAX_STRING = 1 << 20;
    /** Entries of one field's metadata. */
    public static final int MAX_METADATA = 4096;
    /** Bytes of an event payload. */
    public static final int MAX_PAYLOAD = 4096;

    /** Ids of one RELEASED or REGION_CLOSED. */
    public static final int MAX_IDS = 65_536;

    private Limits() {}
}
