package dev.quiver.testkit;

/**
 * Runs test code with a system property set, restoring the previous value (or its absence) afterwards.
 * Not for tests that run concurrently with others reading the same property.
 */
public final class SystemProperties {
    private SystemProperties() {}

    /**
     * Runs {@code work} with the property {@code key} set to {@code value}.
     *
     * @param key   the property
     * @param value its value while {@code work} runs
     * @param work  the test code
     */
    public static void with(String key, String value, Runnable work) {
        String saved = System.getProperty(key);
        System.setProperty(key, value);
        try {
            work.run();
        } finally {
            if (saved == null) {
                System.clearProperty(key);
            } else {
                System.setProperty(key, saved);
            }
        }
    }
}
