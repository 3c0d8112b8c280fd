package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.internal.events.ArrayReleaseEvent;
import dev.quiver.internal.events.Recorder;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.ReleaseCallbacks;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.PhantomReference;

/**
 * What one {@link DeviceArray} owns and how it ends, never referring to the array itself: the C heap block
 * its structs were moved into (the ArrowDeviceArray, then, if it has one, its ArrowSchema), the references
 * on it (the owner's, plus one per view, retained reference and shared export), whether the owner closed it
 * or moved it out, and, as a phantom reference to the array, the means of reporting it as a leak (see
 * {@link LeakRegistry}). State and references share one word, changed atomically, so closing and letting go
 * of the owner's reference is one step.
 *
 * <p>The structs are released, and the block freed, exactly once: by whichever thread lets go of the last
 * reference. {@link #run()} lets go of one reference; an exported view's release calls it, from any thread.
 * Thread-safe.
 */
final class ArrayState extends PhantomReference<Object> implements Runnable, LeakRegistry.Watched {
    static final int OPEN = 0;
    static final int CLOSED = 1;
    static final int MOVED = 2;
    static final long SCHEMA_OFFSET = ArrowDeviceArrayLayout.LAYOUT.byteSize();

    private static final int STATE_SHIFT = 30;
    private static final int REFERENCES = (1 << STATE_SHIFT) - 1;
    private static final VarHandle WORD;

    static {
        try {
            WORD = MethodHandles.lookup().findVarHandle(ArrayState.class, "word", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The state (bits 30-31) and the number of references (bits 0-29). */
    @SuppressWarnings("unused") // through WORD
    private volatile int word = 1;
    /** The block: the ArrowDeviceArray at 0, the ArrowSchema after it if {@link #hasSchema}. */
    final long block;
    final boolean hasSchema;
    final DeviceType type;
    final long id;
    private final String name;
    private final Throwable allocationSite;
    private final long leakId;

    /** @param array the array that owns the block, watched for a leak (typed {@code Object}: this class depends on nothing above it) */
    ArrayState(Object array, long block, boolean hasSchema, DeviceType type, long id, String name) {
        super(array, LeakRegistry.queue());
        this.block = block;
        this.hasSchema = hasSchema;
        this.type = type;
        this.id = id;
        this.name = name;
        this.allocationSite = Diagnostics.TRACKING ? new Throwable("DeviceArray made here") : null;
        this.leakId = LeakRegistry.watch(this);
    }

    /** @return OPEN, CLOSED or MOVED */
    int state() {
        return (int) WORD.getVolatile(this) >>> STATE_SHIFT;
    }

    /** @return the references held, the owner's included while open */
    int references() {
        return (int) WORD.getVolatile(this) & REFERENCES;
    }

    /** Built only when a message needs it: arrays are made on hot paths. */
    String description() {
        return "DeviceArray " + type + ":" + id + " \"" + name + "\"";
    }

    /** @return "moved" or "closed", for messages about an array that is not open */
    String endedAs() {
        return state() == MOVED ? "moved" : "closed";
    }

    /**
     * Closes: lets go of the owner's reference, releasing the structs if it was the last.
     *
     * @return false if the array was not open (nothing done)
     */
    boolean close() {
        int w;
        do {
            w = (int) WORD.getVolatile(this);
            if (w >>> STATE_SHIFT != OPEN) {
                return false;
            }
        } while (!WORD.compareAndSet(this, w, CLOSED << STATE_SHIFT | ((w & REFERENCES) - 1)));
        LeakRegistry.unwatch(leakId);
        if ((w & REFERENCES) == 1) {
            releaseStructs();
        }
        return true;
    }

    /**
     * Marks the array moved out, if only the owner holds it: the caller then owns the block.
     *
     * @return OPEN if it was marked; otherwise the state found (with references held, it stays OPEN and
     *         -1 is returned)
     */
    int move() {
        while (true) {
            int w = (int) WORD.getVolatile(this);
            if (w >>> STATE_SHIFT != OPEN) {
                return w >>> STATE_SHIFT;
            }
            if ((w & REFERENCES) != 1) {
                return -1;
            }
            if (WORD.compareAndSet(this, w, MOVED << STATE_SHIFT)) {
                LeakRegistry.unwatch(leakId);
                return OPEN;
            }
        }
    }

    /**
     * Takes one more reference.
     *
     * @return false if the array is no longer open (nothing taken)
     */
    boolean acquire() {
        while (true) {
            int w = (int) WORD.getVolatile(this);
            if (w >>> STATE_SHIFT != OPEN || (w & REFERENCES) == 0) {
                return false;
            }
            if ((w & REFERENCES) == REFERENCES) {
                throw new IllegalStateException(description() + " has too many views and references open");
            }
            if (WORD.compareAndSet(this, w, w + 1)) {
                return true;
            }
        }
    }

    /**
     * Lets go of one reference (a view's, a retained one, an exported view's), releasing the structs if it was
     * the last. Called exactly once for each {@link #acquire()} that returned true, never more ({@link #close()}
     * gives back the array's own reference): the count shares its word with the state, so a call too many
     * would corrupt both.
     * Whoever took the reference decides who gives it back (the export table's release of the last node, a
     * keep-alive's clear, a failed view's clean-up); any thread.
     */
    @Override
    public void run() {
        int w = (int) WORD.getAndAdd(this, -1);
        if ((w & REFERENCES) == 1) {
            releaseStructs();
        }
    }

    /** Reports the array as a leak if it was never closed nor moved: called once it is unreachable. */
    @Override
    public void reportIfOpen() {
        // unreachable, so never closed or moved from now on: this thread alone stops watching it
        if (state() == OPEN && LeakRegistry.unwatch(leakId)) {
            Diagnostics.reportLeak(description(), allocationSite);
        }
    }

    /** Calls the array's and the schema's release callbacks, then frees the block. */
    private void releaseStructs() {
        ArrayReleaseEvent event = Recorder.arrayRelease();
        long length = event == null ? 0 : RawMemory.getLong(block + ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.LENGTH);
        try {
            ReleaseCallbacks.releaseArrayStruct(block + ArrowDeviceArrayLayout.ARRAY);
        } finally {
            try {
                if (hasSchema) {
                    ReleaseCallbacks.releaseSchemaStruct(block + SCHEMA_OFFSET);
                }
            } finally {
                NativeHeap.free(block);
            }
        }
        if (event != null) {
            event.finish(type + ":" + id, name, length);
        }
    }

    /**
     * Releases the structs of a block that holds a live ArrowDeviceArray (and its ArrowSchema after it if
     * {@code hasSchema}) and that no array owns yet, and frees it; failures join {@code primary}.
     */
    static void releaseQuietly(long block, boolean hasSchema, Throwable primary) {
        try {
            ReleaseCallbacks.releaseArrayStruct(block + ArrowDeviceArrayLayout.ARRAY);
        } catch (RuntimeException e) {
            primary.addSuppressed(e);
        }
        try {
            if (hasSchema) {
                ReleaseCallbacks.releaseSchemaStruct(block + SCHEMA_OFFSET);
            }
        } catch (RuntimeException e) {
            primary.addSuppressed(e);
        } finally {
            NativeHeap.free(block);
        }
    }
}
