package dev.quiver.share.internal.arrays;

import dev.quiver.spi.ImportedMemory;

import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The device memory one received batch opened from the owner's inter-process handles, with the action that
 * tells the owner the batch is released. Closing closes each opened allocation ({@code cuIpcCloseMemHandle}
 * and the like) and then runs the action, once, on the closing thread (the release of the array they are in).
 */
final class OpenedHandles implements AutoCloseable {
    private final List<ImportedMemory> opened;
    private final Runnable released;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Takes over opened memory.
     *
     * @param opened   the memory, owned by this object from now on
     * @param released runs after the memory is closed; must not throw
     */
    OpenedHandles(List<ImportedMemory> opened, Runnable released) {
        this.opened = List.copyOf(opened);
        this.released = released;
    }

    /** Closes every opened allocation and runs the release action; later calls do nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            closeAll(opened);
            released.run();
        }
    }

    /** Closes each of {@code opened}, going on past failures, which are logged. */
    static void closeAll(List<ImportedMemory> opened) {
        for (ImportedMemory memory : opened) {
            try {
                memory.close();
            } catch (RuntimeException e) {
                System.getLogger(OpenedHandles.class.getName()).log(System.Logger.Level.WARNING,
                        "closing the owner's device memory " + memory + " failed", e);
            }
        }
    }
}
