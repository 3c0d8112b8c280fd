package dev.quiver.check;

import java.util.Objects;

/**
 * One broken rule, where it was broken, and how. Immutable.
 *
 * @param rule    the rule
 * @param path    the field path, from the struct the producer filled: {@code reserved[1]},
 *                {@code array.children[0].buffers[1]}, {@code schema.children[2].format},
 *                {@code stream.release}, {@code arrays[3].device_type}
 * @param message what is wrong, naming the values found
 */
public record Violation(Rule rule, String path, String message) {
    /** Checks that no component is null. */
    public Violation {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(message, "message");
    }
}
