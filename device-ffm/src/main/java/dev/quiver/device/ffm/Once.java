package dev.quiver.device.ffm;

/**
 * A value computed on first use and kept once computed; a failed computation is not kept, so the next use
 * tries again. Thread-safe: concurrent first uses compute it once.
 *
 * @param <T> the value
 */
public final class Once<T> {
    private volatile T value;

    /** Computes the value. */
    @FunctionalInterface
    public interface Computation<T, E extends Exception> {
        /**
         * @return the value, never null
         * @throws E why it cannot be computed
         */
        T compute() throws E;
    }

    /**
     * @param computation how to compute the value, called at most once successfully
     * @param <E>         what the computation may throw
     * @return the value
     * @throws E if this use computed and the computation failed
     */
    public <E extends Exception> T get(Computation<T, E> computation) throws E {
        T result = value;
        if (result == null) {
            synchronized (this) {
                result = value;
                if (result == null) {
                    result = computation.compute();
                    value = result;
                }
            }
        }
        return result;
    }
}
