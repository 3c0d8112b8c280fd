package dev.quiver.internal.pool;

/**
 * The limits a new pool starts with: the system properties {@code quiver.pool.cacheLimit} and
 * {@code quiver.pool.limit} where set (bytes, or with a {@code k}, {@code m} or {@code g} suffix), else an
 * eighth of the device's memory (at most 1 GiB; 256 MiB where the size is unknown) cached and no limit.
 * Stateless.
 */
public final class PoolDefaults {
    static final long MAX_DEFAULT_CACHE = 1L << 30;
    static final long UNKNOWN_SIZE_CACHE = 256L << 20;

    private PoolDefaults() {}

    /** @return the cache limit for a device of {@code totalMemory} bytes (-1 when unknown) */
    static long cacheLimit(long totalMemory) {
        String set = System.getProperty("quiver.pool.cacheLimit");
        if (set != null) {
            return bytes("quiver.pool.cacheLimit", set);
        }
        return totalMemory <= 0 ? UNKNOWN_SIZE_CACHE : Math.min(MAX_DEFAULT_CACHE, totalMemory / 8);
    }

    /** @return the limit a new pool starts with */
    static long limit() {
        String set = System.getProperty("quiver.pool.limit");
        return set == null ? Long.MAX_VALUE : bytes("quiver.pool.limit", set);
    }

    /**
     * @param property the property's name, for the message
     * @param text     a byte count, optionally with a k, m or g suffix (powers of 1024)
     * @return the bytes
     * @throws IllegalArgumentException naming the property if the text is not a non-negative size
     */
    public static long bytes(String property, String text) {
        String t = text.trim().toLowerCase(java.util.Locale.ROOT);
        int shift = 0;
        if (!t.isEmpty()) {
            switch (t.charAt(t.length() - 1)) {
                case 'k' -> shift = 10;
                case 'm' -> shift = 20;
                case 'g' -> shift = 30;
                default -> { }
            }
        }
        String digits = shift == 0 ? t : t.substring(0, t.length() - 1);
        try {
            long value = Long.parseLong(digits);
            if (value < 0 || value > (Long.MAX_VALUE >> shift)) {
                throw new NumberFormatException();
            }
            return value << shift;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(property + " must be a size in bytes (with k, m or g for KiB, MiB, GiB): \"" + text + "\"");
        }
    }
}
