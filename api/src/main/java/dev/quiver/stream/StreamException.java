package dev.quiver.stream;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A stream failed with an {@code errno}-compatible code: the other side returned it (a C producer's
 * {@code get_next}, a C consumer's {@code on_next_task}, a C producer's {@code on_error}), or Java code
 * throws it to choose the code the other side sees.
 *
 * <p>The message carries what the other side said about the error ({@code get_last_error}, or the
 * {@code on_error} message), copied into Java: it stays valid after the stream is gone. Immutable.
 */
public class StreamException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The {@code errno} value. */
    private final int code;
    /** What went wrong, as the other side described it; may be null. */
    private final String detail;
    private final transient Map<String, String> metadata;

    /**
     * A stream error with an {@code errno} code and no metadata.
     *
     * @param code   an {@code errno} value of this platform, not 0
     * @param detail what went wrong, as the other side described it; may be null
     */
    public StreamException(int code, String detail) {
        this(code, detail, Map.of());
    }

    /**
     * A stream error with a known {@code errno} code and no metadata.
     *
     * @param errno  the code
     * @param detail what went wrong
     */
    public StreamException(Errno errno, String detail) {
        this(errno.code(), detail, Map.of());
    }

    /**
     * A stream error with an {@code errno} code and the metadata that came with it.
     *
     * @param code     an {@code errno} value of this platform, not 0
     * @param detail   what went wrong; may be null
     * @param metadata key/value error metadata (as {@code on_error} carries it); copied
     */
    public StreamException(int code, String detail, Map<String, String> metadata) {
        super(Errno.describe(code) + (detail == null ? ": no error description given" : ": " + detail));
        if (code == 0) {
            throw new IllegalArgumentException("0 means success, not an error code");
        }
        this.code = code;
        this.detail = detail;
        this.metadata = Collections.unmodifiableMap(new LinkedHashMap<>(metadata));
    }

    /** {@return the {@code errno} value} */
    public int code() {
        return code;
    }

    /** {@return the symbolic name of {@link #code()}, if Quiver knows it} */
    public Optional<Errno> errno() {
        return Errno.of(code);
    }

    /** {@return the other side's description of the error, if it gave one} */
    public Optional<String> detail() {
        return Optional.ofNullable(detail);
    }

    /** {@return the error metadata ({@code on_error}'s {@code metadata}); empty if there was none} */
    public Map<String, String> metadata() {
        return metadata;
    }
}
