package dev.quiver;

import java.util.Locale;

/**
 * How far an import trusts the pointers a producer hands over. Whatever the trust, every count, length,
 * offset, format and flag is checked against the type before any slot is read, and every failure is an
 * {@link InvalidArrowException} naming the field path, after the producer's release ran exactly once.
 *
 * <p>What stays trusted in both modes: device memory and device handles (a {@code cl_mem}, a CUDA device
 * pointer, a {@code sync_event}), which no host check can follow; memory whose protection changed since
 * the cached map of readable memory was taken (unmapped and mapped again without read access at the same
 * address, or {@code mprotect}ed): still mapped, it looks readable. Memory unmapped since the map was taken
 * is caught: each hit of the map is confirmed with the kernel ({@code mincore}), which never touches the
 * memory.
 */
public enum ProducerTrust {
    /**
     * Pointers are trusted to point to memory of the sizes the fields imply, as Arrow C++ and nanoarrow
     * trust them: no cost per pointer. {@link Interchange#validateFull(DeviceArray)} still checks every host range it
     * reads against the process's readable mappings.
     */
    TRUSTED,
    /**
     * Every host pointer of the structs (the structs themselves, buffer and child pointer arrays, format,
     * name and metadata strings, dictionaries) and, for arrays in host-accessible memory, every byte range
     * a buffer's implied size addresses, is checked against the process's readable mappings (Linux
     * {@code /proc/self/maps}, cached and taken again on a miss) before it is read, so that unmapped or
     * short memory is refused instead of crashing the JVM. Where the system publishes no mappings, the
     * checks cannot run and pointers are trusted.
     */
    UNTRUSTED;

    /** The system property that sets the process-wide default: {@code trusted} or {@code untrusted}. */
    public static final String PROPERTY = "quiver.producerTrust";

    /**
     * {@return the trust named by {@value #PROPERTY}, {@link #TRUSTED} when it is not set}
     * @throws IllegalArgumentException if the property names neither
     */
    public static ProducerTrust fromEnvironment() {
        String value = System.getProperty(PROPERTY);
        if (value == null || value.isEmpty()) {
            return TRUSTED;
        }
        return switch (value.toLowerCase(Locale.ROOT)) {
            case "trusted" -> TRUSTED;
            case "untrusted" -> UNTRUSTED;
            default -> throw new IllegalArgumentException(PROPERTY + " is \"" + value + "\"; it must be trusted or untrusted");
        };
    }
}
