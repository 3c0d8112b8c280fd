package dev.quiver.check;

import dev.quiver.internal.abi.CallbackErrors;
import dev.quiver.internal.validate.Paths;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Releases what a producer handed over the way a consumer must, and checks what the callbacks do:
 * <ol>
 *   <li>the struct is <em>moved</em> into memory of the checker's own (bitwise copy, source marked
 *       released), so a release that assumes its struct never moves is exercised;</li>
 *   <li>the {@code release} of every child and dictionary below it is replaced by a wrapper that counts
 *       the call, calls the producer's own callback, and notes whether that callback marked its struct
 *       released; a callback that is not code is never called;</li>
 *   <li>the base struct's release is called once; afterwards its {@code release} must be NULL, each
 *       wrapped child must have been released exactly once by its parent, and must have marked itself
 *       released.</li>
 * </ol>
 * Only the base struct is read after its release, and only in the checker's own copy; children are read
 * inside the wrapper, before their parent frees them.
 *
 * <p>The wrapper is an upcall that never throws; it finds the producer's callback in a table keyed by the
 * child's address (no Java reference is stored in native memory). Checks may run on several threads.
 */
final class ReleaseCheck {
    private static final ConcurrentHashMap<Long, Wrapped> WRAPPED = new ConcurrentHashMap<>();

    private ReleaseCheck() {}

    /** A child whose release the wrapper stands in for. */
    private static final class Wrapped {
        final StructKind kind;
        final String path;
        final MemorySegment original;
        final AtomicInteger calls = new AtomicInteger();
        volatile boolean marked;

        Wrapped(StructKind kind, String path, MemorySegment original) {
            this.kind = kind;
            this.path = path;
            this.original = original;
        }
    }

    /** The wrapper's upcall stub, made on first use. */
    private static final class Stub {
        static final MemorySegment WRAPPER = make();

        private static MemorySegment make() {
            try {
                return Linker.nativeLinker().upcallStub(MethodHandles.lookup().findStatic(ReleaseCheck.class, "wrapper",
                        MethodType.methodType(void.class, MemorySegment.class)), FunctionDescriptor.ofVoid(ADDRESS), Arena.global());
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * Moves an ArrowArray or ArrowSchema out of the producer's struct and releases it, checking the
     * release callbacks of the whole tree. Does nothing if {@code release} is NULL (the validators report
     * that).
     *
     * @param kind      array or schema
     * @param struct    the producer's struct; left released
     * @param path      its field path
     * @param collector where violations go
     */
    static void release(StructKind kind, MemorySegment struct, String path, Collector collector) {
        struct = struct.reinterpret(kind.size);
        MemorySegment release = struct.get(ADDRESS, kind.release);
        String releasePath = Paths.join(path, "release");
        if (release.equals(MemorySegment.NULL) || !collector.callable(release, releasePath)) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment own = arena.allocate(kind.size, 8).copyFrom(struct);
            struct.set(ADDRESS, kind.release, MemorySegment.NULL);
            List<Wrapped> wrapped = wrapDescendants(kind, own, path, collector);
            try {
                NativeCalls.release(release, own);
            } finally {
                for (Wrapped w : wrapped) {
                    WRAPPED.values().remove(w);
                }
            }
            if (!own.get(ADDRESS, kind.release).equals(MemorySegment.NULL)) {
                collector.report(Rule.RELEASE_NOT_MARKED, releasePath, "is still set after the release callback returned: "
                        + "the callback must mark the struct released (release = NULL)");
            }
            for (Wrapped w : wrapped) {
                int calls = w.calls.get();
                if (calls == 0) {
                    collector.report(Rule.RELEASE_CHILD, Paths.join(w.path, "release"), "was not called by its parent's release "
                            + "(a release callback must release every child and the dictionary)");
                } else if (calls > 1) {
                    collector.report(Rule.RELEASE_CHILD, Paths.join(w.path, "release"), "was called " + calls + " times by its parent's release");
                }
                if (calls > 0 && !w.original.equals(MemorySegment.NULL) && !w.marked) {
                    collector.report(Rule.RELEASE_NOT_MARKED, Paths.join(w.path, "release"), "is still set after the release callback returned: "
                            + "the callback must mark the struct released (release = NULL)");
                }
            }
        }
    }

    /**
     * Moves a struct without children (an ArrowDeviceArrayStream) and releases it.
     *
     * @param struct        the producer's struct; left released
     * @param size          its size in bytes
     * @param releaseOffset where its {@code release} sits
     * @param path          its field path
     * @param collector     where violations go
     */
    static void releaseFlat(MemorySegment struct, long size, long releaseOffset, String path, Collector collector) {
        struct = struct.reinterpret(size);
        MemorySegment release = struct.get(ADDRESS, releaseOffset);
        String releasePath = Paths.join(path, "release");
        if (release.equals(MemorySegment.NULL) || !collector.callable(release, releasePath)) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment own = arena.allocate(size, 8).copyFrom(struct);
            struct.set(ADDRESS, releaseOffset, MemorySegment.NULL);
            NativeCalls.release(release, own);
            if (!own.get(ADDRESS, releaseOffset).equals(MemorySegment.NULL)) {
                collector.report(Rule.RELEASE_NOT_MARKED, releasePath, "is still set after the release callback returned: "
                        + "the callback must mark the struct released (release = NULL)");
            }
        }
    }

    private static List<Wrapped> wrapDescendants(StructKind kind, MemorySegment own, String path, Collector collector) {
        List<Wrapped> wrapped = new ArrayList<>();
        for (StructTree.Node node : StructTree.descendants(kind, own, path, collector)) {
            MemorySegment release = node.struct().get(ADDRESS, kind.release);
            if (release.equals(MemorySegment.NULL)) {
                continue;
            }
            MemorySegment original = collector.callable(release, Paths.join(node.path(), "release")) ? release : MemorySegment.NULL;
            Wrapped w = new Wrapped(kind, node.path(), original);
            WRAPPED.put(node.struct().address(), w);
            node.struct().set(ADDRESS, kind.release, Stub.WRAPPER);
            wrapped.add(w);
        }
        return wrapped;
    }

    /** The wrapper: {@code void release(struct*)} for wrapped children. Never throws. */
    private static void wrapper(MemorySegment pointer) {
        try {
            Wrapped w = WRAPPED.get(pointer.address());
            if (w == null) {
                return;
            }
            MemorySegment struct = pointer.reinterpret(w.kind.size);
            if (w.calls.incrementAndGet() > 1) {
                return;
            }
            if (w.original.equals(MemorySegment.NULL)) {
                struct.set(ADDRESS, w.kind.release, MemorySegment.NULL);
                return;
            }
            NativeCalls.release(w.original, struct);
            w.marked = struct.get(ADDRESS, w.kind.release).equals(MemorySegment.NULL);
        } catch (Throwable t) {
            CallbackErrors.record("conformance check release wrapper", t);
        }
    }
}
