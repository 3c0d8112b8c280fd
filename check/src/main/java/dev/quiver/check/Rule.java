package dev.quiver.check;

import dev.quiver.internal.validate.Fault;

/**
 * The rules of the Arrow C Data, C Device Data and C stream interfaces that {@link Conformance} checks,
 * each with a stable id (for example {@code device.reserved}) that reports and scripts can match on.
 * Ids are grouped by the struct they concern: {@code device.*} and {@code event.*} for the fields the
 * ArrowDeviceArray adds, {@code array.*} for ArrowArray, {@code schema.*} for ArrowSchema,
 * {@code stream.*} for ArrowDeviceArrayStream, {@code release.*}, {@code pointer.*} and {@code struct.*}
 * for ownership and memory, {@code producer.*} for the function under test.
 */
public enum Rule {
    /** {@code reserved[0..2]} are zero: "These bytes should be zero'd out after allocation". */
    DEVICE_RESERVED("device.reserved", "reserved[0..2] of an ArrowDeviceArray are zero"),
    /**
     * A CPU array's {@code device_id} should be -1: the spec recommends it for types without device ids, so
     * another value is a {@linkplain #advisory() warning}, not a violation.
     */
    DEVICE_ID_CPU("device.cpu-id", "a CPU array's device_id should be -1 (recommended)", true),
    /** {@code device_id} is a device ordinal (&gt;= 0) or -1; nothing below -1. */
    DEVICE_ID_RANGE("device.id-range", "device_id is a device ordinal >= 0, or -1 where the type has no ids"),
    /** {@code device_type} is not 5 or 6, which Arrow and DLPack leave unassigned. */
    DEVICE_TYPE_UNASSIGNED("device.type-unassigned", "device_type is not 5 or 6 (unassigned)"),
    /** {@code device_type} is one of the {@code ARROW_DEVICE_*} codes 1..16. */
    DEVICE_TYPE_UNKNOWN("device.type-unknown", "device_type is an ARROW_DEVICE_* code"),

    /** {@code sync_event} is NULL for device types without events (CPU, VPI, WebGPU, Hexagon). */
    EVENT_NOT_ALLOWED("event.not-allowed", "sync_event is NULL for device types without events (CPU)"),
    /** {@code sync_event} points to readable host memory that holds the event (a {@code cl_event*}). */
    EVENT_NOT_A_POINTER("event.not-a-pointer", "sync_event points to readable host memory holding the event"),
    /** The event {@code sync_event} points to is not a NULL handle. */
    EVENT_NULL_HANDLE("event.null-handle", "the event handle sync_event points to is not NULL"),
    /** {@code sync_event} is a pointer to the event, not the event handle itself. */
    EVENT_HANDLE_STORED("event.handle-stored", "sync_event is a pointer to the event, not the event itself"),

    /** The array is not released (its {@code release} is set). */
    ARRAY_RELEASED("array.released", "the array (and each child) is not released: release is set"),
    /** Nesting stays within the depth a consumer accepts. */
    ARRAY_DEPTH("array.depth", "array nesting stays within 64 levels"),
    /** {@code length} is not negative. */
    ARRAY_LENGTH("array.length", "length is >= 0"),
    /** {@code offset} is not negative and {@code offset + length} stays addressable. */
    ARRAY_OFFSET("array.offset", "offset is >= 0 and offset + length is addressable"),
    /** {@code null_count} is -1 or 0..length, and 0 or length where the type demands it. */
    ARRAY_NULL_COUNT("array.null-count", "null_count is -1 or 0..length, as the type allows"),
    /** {@code n_buffers} matches the format. */
    ARRAY_BUFFER_COUNT("array.buffer-count", "n_buffers matches the format"),
    /** {@code buffers} is set, and a buffer is NULL only where the spec allows it. */
    ARRAY_BUFFER_NULL("array.buffer-null", "a buffer is NULL only if it is the validity bitmap with null_count 0, or empty"),
    /** {@code n_children} matches the schema. */
    ARRAY_CHILD_COUNT("array.child-count", "n_children matches the schema"),
    /** {@code children} and each child pointer are set. */
    ARRAY_CHILD_NULL("array.child-null", "children and each child pointer are non-NULL"),
    /** Children are long enough for their parent (struct, sparse union, fixed-size list). */
    ARRAY_CHILD_LENGTH("array.child-length", "children cover their parent's offset + length"),
    /** Run-end encoded arrays: one value per run end, run ends not null, not empty. */
    ARRAY_RUN_ENDS("array.run-ends", "run-end encoded arrays have one value per run and non-null run ends"),
    /** {@code dictionary} is set exactly when the schema is dictionary-encoded. */
    ARRAY_DICTIONARY("array.dictionary", "dictionary is set exactly when the schema is dictionary-encoded"),
    /** Each host buffer's size follows from offsets and sizes that are not negative and do not overflow. */
    ARRAY_BUFFER_SIZE("array.buffer-size", "each buffer's size follows from non-negative offsets and sizes that do not overflow"),
    /** Buffer contents of host arrays: offsets, UTF-8, null counts, type ids, indices, run ends, views. */
    ARRAY_DATA("array.data", "buffer contents are valid (offsets, UTF-8, null counts, type ids, indices, run ends, views)"),

    /** The schema is not released. */
    SCHEMA_RELEASED("schema.released", "the schema (and each child) is not released: release is set"),
    /** Nesting stays within the depth a consumer accepts. */
    SCHEMA_DEPTH("schema.depth", "schema nesting stays within 64 levels"),
    /** {@code format} is set and is a format string of the spec. */
    SCHEMA_FORMAT("schema.format", "format is non-NULL and a valid format string"),
    /** {@code format} and {@code name} are NUL-terminated within a sane length. */
    SCHEMA_STRING("schema.string", "format and name are NUL-terminated strings of at most 1 MiB"),
    /** Only the flags the spec defines are set. */
    SCHEMA_FLAGS("schema.flags", "only DICTIONARY_ORDERED, NULLABLE and MAP_KEYS_SORTED flags are set"),
    /** A dictionary-encoded field's format is an integer index type. */
    SCHEMA_DICTIONARY("schema.dictionary", "a dictionary-encoded field's format is an integer index type"),
    /** {@code n_children} matches the format. */
    SCHEMA_CHILD_COUNT("schema.child-count", "n_children matches the format"),
    /** {@code children} and each child pointer are set. */
    SCHEMA_CHILD_NULL("schema.child-null", "children and each child pointer are non-NULL"),
    /** Children fit their parent type (map entries are a struct of two, run ends are integers). */
    SCHEMA_CHILD_TYPE("schema.child-type", "children have the types their parent requires"),
    /** {@code metadata} is NULL or a well-formed pair list. */
    SCHEMA_METADATA("schema.metadata", "metadata is NULL or a well-formed key/value encoding"),

    /** Every pointer a consumer must read points to readable host memory. */
    POINTER_UNREADABLE("pointer.unreadable", "pointers the consumer reads point to readable host memory"),
    /** Every callback points into executable memory. */
    POINTER_NOT_CODE("pointer.not-code", "callbacks point into executable memory"),
    /** No pointer member points inside its own struct, so that the struct can be moved. */
    STRUCT_SELF_POINTER("struct.self-pointer", "no member points inside its own struct (structs must be movable)"),
    /** {@code release} marks the struct released by setting {@code release} to NULL. */
    RELEASE_NOT_MARKED("release.not-marked", "release sets release to NULL"),
    /** A parent's release calls each child's and the dictionary's release, exactly once. */
    RELEASE_CHILD("release.child", "a parent's release releases each child and the dictionary exactly once"),

    /** The producer function, and every stream callback, returns 0. */
    PRODUCER_ERROR("producer.error", "the producer and its stream callbacks return 0"),
    /**
     * The producer, its callbacks and the release callbacks it hands out return without ending the process
     * (no signal, no {@code exit}). Found only where the producer runs in a process of its own.
     */
    PRODUCER_CRASH("producer.crash", "the producer and its callbacks return without ending the process"),
    /** The producer and its callbacks finish within the time the checker allows. */
    PRODUCER_TIMEOUT("producer.timeout", "the producer and its callbacks finish within the time allowed"),
    /** The stream is handed over live: its {@code release} is set. */
    STREAM_RELEASED("stream.released", "the stream is not released: release is set"),
    /** {@code get_schema}, {@code get_next}, {@code get_last_error} and {@code release} are all set. */
    STREAM_CALLBACK("stream.callback", "get_schema, get_next, get_last_error and release are set"),
    /** Error codes are positive {@code errno} values. */
    STREAM_ERROR_CODE("stream.error-code", "error codes are positive errno values"),
    /** After an error, {@code get_last_error} returns NULL or a readable NUL-terminated UTF-8 string. */
    STREAM_LAST_ERROR("stream.last-error", "get_last_error returns NULL or a NUL-terminated UTF-8 string"),
    /** Every array of the stream has the stream's {@code device_type}. */
    STREAM_DEVICE_TYPE("stream.device-type", "every array's device_type equals the stream's");

    private final String id;
    private final String summary;
    private final boolean advisory;

    Rule(String id, String summary) {
        this(id, summary, false);
    }

    Rule(String id, String summary, boolean advisory) {
        this.id = id;
        this.summary = summary;
        this.advisory = advisory;
    }

    /**
     * {@return true if the rule is a recommendation of the spec ("should", not "must"): breaking it is
     * reported as a warning, and the producer still conforms}
     */
    public boolean advisory() {
        return advisory;
    }

    /** {@return the stable id, for example {@code device.reserved}} */
    public String id() {
        return id;
    }

    /** {@return the rule as one sentence} */
    public String summary() {
        return summary;
    }

    /**
     * @param fault a fault the validators found
     * @return the rule it breaks
     */
    static Rule of(Fault fault) {
        return switch (fault) {
            case ARRAY_RELEASED -> ARRAY_RELEASED;
            case ARRAY_DEPTH -> ARRAY_DEPTH;
            case ARRAY_LENGTH -> ARRAY_LENGTH;
            case ARRAY_OFFSET -> ARRAY_OFFSET;
            case ARRAY_NULL_COUNT -> ARRAY_NULL_COUNT;
            case ARRAY_BUFFER_COUNT -> ARRAY_BUFFER_COUNT;
            case ARRAY_BUFFER_NULL -> ARRAY_BUFFER_NULL;
            case ARRAY_CHILD_COUNT -> ARRAY_CHILD_COUNT;
            case ARRAY_CHILD_NULL -> ARRAY_CHILD_NULL;
            case ARRAY_CHILD_LENGTH -> ARRAY_CHILD_LENGTH;
            case ARRAY_RUN_ENDS -> ARRAY_RUN_ENDS;
            case ARRAY_DICTIONARY -> ARRAY_DICTIONARY;
            case ARRAY_BUFFER_SIZE -> ARRAY_BUFFER_SIZE;
            case SCHEMA_RELEASED -> SCHEMA_RELEASED;
            case SCHEMA_DEPTH -> SCHEMA_DEPTH;
            case SCHEMA_FORMAT -> SCHEMA_FORMAT;
            case SCHEMA_STRING -> SCHEMA_STRING;
            case SCHEMA_FLAGS -> SCHEMA_FLAGS;
            case SCHEMA_DICTIONARY -> SCHEMA_DICTIONARY;
            case SCHEMA_CHILD_COUNT -> SCHEMA_CHILD_COUNT;
            case SCHEMA_CHILD_NULL -> SCHEMA_CHILD_NULL;
            case SCHEMA_CHILD_TYPE -> SCHEMA_CHILD_TYPE;
            case SCHEMA_METADATA -> SCHEMA_METADATA;
            case POINTER_UNREADABLE -> POINTER_UNREADABLE;
        };
    }
}
