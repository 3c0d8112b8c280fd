package dev.quiver.flight;

/**
 * Where a writer waits before each batch until the other side can take more, so that a slow reader slows
 * the writer down instead of making it buffer the stream. Called by the writing thread only.
 */
@FunctionalInterface
interface ReadyGate {
    /** A gate that never waits, for writers whose transport waits by itself. */
    ReadyGate OPEN = () -> true;

    /**
     * Blocks until the stream can take the next batch.
     *
     * @return true to write the batch, false if the call was cancelled and writing must stop
     */
    boolean awaitReady();
}
