package dev.quiver;

import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Which backends an application allows, by provider name.
 *
 * <p>Spelled as a comma-separated list: names alone choose backends (only those are used), names with a
 * leading {@code -} exclude them. {@code "cpu,opencl"} uses only those two; {@code "-vulkan"} uses all
 * but Vulkan. {@link #fromEnvironment()} reads the system property {@value #PROPERTY}, else the
 * environment variable {@value #ENVIRONMENT}. Immutable.
 *
 * @param chosen   names to use; empty means all
 * @param excluded names never to use
 */
public record BackendSelection(Set<String> chosen, Set<String> excluded) {
    /** System property that chooses or excludes backends. */
    public static final String PROPERTY = "quiver.backends";
    /** Environment variable read when the property is absent. */
    public static final String ENVIRONMENT = "QUIVER_BACKENDS";

    /** Copies the sets. */
    public BackendSelection {
        chosen = Set.copyOf(chosen);
        excluded = Set.copyOf(excluded);
    }

    /** {@return a selection that allows every backend} */
    public static BackendSelection all() {
        return new BackendSelection(Set.of(), Set.of());
    }

    /**
     * {@return the selection}
     * @param spec for example {@code "cpu,opencl"} or {@code "-vulkan,-cuda"}; blank allows all
     */
    public static BackendSelection parse(String spec) {
        Set<String> chosen = new LinkedHashSet<>();
        Set<String> excluded = new LinkedHashSet<>();
        for (String part : spec.split(",")) {
            String name = part.strip().toLowerCase(Locale.ROOT);
            if (name.isEmpty()) {
                continue;
            }
            if (name.startsWith("-")) {
                excluded.add(name.substring(1).strip());
            } else {
                chosen.add(name.startsWith("+") ? name.substring(1).strip() : name);
            }
        }
        return new BackendSelection(chosen, excluded);
    }

    /** {@return the selection named by {@value #PROPERTY} or {@value #ENVIRONMENT}, else {@link #all()}} */
    public static BackendSelection fromEnvironment() {
        String spec = System.getProperty(PROPERTY);
        if (spec == null) {
            spec = System.getenv(ENVIRONMENT);
        }
        return spec == null ? all() : parse(spec);
    }

    /**
     * {@return why the provider is not allowed, or empty if it is}
     * @param provider a provider name
     */
    public Optional<String> refusal(String provider) {
        String name = provider.toLowerCase(Locale.ROOT);
        if (excluded.contains(name)) {
            return Optional.of("excluded by " + PROPERTY + "/" + ENVIRONMENT + " (-" + name + ")");
        }
        if (!chosen.isEmpty() && !chosen.contains(name)) {
            return Optional.of("not chosen by " + PROPERTY + "/" + ENVIRONMENT + " (chosen: " + String.join(",", chosen) + ")");
        }
        return Optional.empty();
    }
}
