package dev.quiver.cbuild;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * A C source or header. Immutable; thread-safe.
 *
 * @param fileName its file name, for example {@code producer.c}
 * @param text     its content
 */
public record CSource(String fileName, String text) {
    /**
     * Reads a source that sits as a resource beside {@code anchor} (same package). In a named module, the
     * package must be open to {@code dev.quiver.cbuild}.
     *
     * @param anchor   a class whose package holds the resource
     * @param fileName the resource's file name
     * @return the source
     * @throws IllegalArgumentException if there is no such resource
     */
    public static CSource resource(Class<?> anchor, String fileName) {
        try (InputStream in = anchor.getResourceAsStream(fileName)) {
            if (in == null) {
                throw new IllegalArgumentException("no resource " + fileName + " beside " + anchor.getName());
            }
            return new CSource(fileName, new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return {@code arrow_c_abi.h}: the Arrow C Data and C Device Data structs, written from the specification} */
    public static CSource arrowCAbi() {
        return resource(CSource.class, "arrow_c_abi.h");
    }
}
