package dev.quiver.internal;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The release callbacks of structs Quiver exports, and the calling of foreign release callbacks.
 *
 * <p>Our callbacks may be called from any native thread. They never throw: failures are recorded by
 * {@link CallbackErrors}. Each marks its struct released ({@code release = NULL}) before freeing anything,
 * releases the children and dictionary that were not moved out, then drops its node's reference to the
 * shared memory of the tree. The stubs are made on first use, never at class initialisation of the API.
 */
public final class ReleaseCallbacks {
    private static final FunctionDescriptor RELEASE = FunctionDescriptor.ofVoid(ADDRESS);

    private ReleaseCallbacks() {}

    /** Upcall stubs and the generic invoker, made once, on first use. */
    private static final class Stubs {
        static final MemorySegment ARRAY = upcall("releaseArray");
        static final MemorySegment SCHEMA = upcall("releaseSchema");
        static final MethodHandle INVOKE = Linker.nativeLinker().downcallHandle(RELEASE);

        private static MemorySegment upcall(String method) {
            try {
                MethodHandle target = MethodHandles.lookup().findStatic(ReleaseCallbacks.class, method,
                        MethodType.methodType(void.class, MemorySegment.class));
                return Linker.nativeLinker().upcallStub(target, RELEASE, Arena.global());
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** @return the address of our {@code ArrowArray.release} */
    static MemorySegment arrayRelease() {
        return Stubs.ARRAY;
    }

    /** @return the address of our {@code ArrowSchema.release} */
    static MemorySegment schemaRelease() {
        return Stubs.SCHEMA;
    }

    /**
     * Calls the release callback of an ArrowArray, ours or a foreign one, if it is not released yet.
     *
     * @param array an ArrowArray (at least 80 bytes)
     */
    public static void releaseArrayStruct(MemorySegment array) {
        MemorySegment fn = array.get(ADDRESS, ArrowArrayLayout.RELEASE);
        if (fn.equals(MemorySegment.NULL)) {
            return;
        }
        if (fn.equals(Stubs.ARRAY)) {
            releaseArray(array);
        } else {
            invoke(fn, array);
        }
    }

    /**
     * Calls the release callback of an ArrowSchema, ours or a foreign one, if it is not released yet.
     *
     * @param schema an ArrowSchema (at least 72 bytes)
     */
    public static void releaseSchemaStruct(MemorySegment schema) {
        MemorySegment fn = schema.get(ADDRESS, ArrowSchemaLayout.RELEASE);
        if (fn.equals(MemorySegment.NULL)) {
            return;
        }
        if (fn.equals(Stubs.SCHEMA)) {
            releaseSchema(schema);
        } else {
            invoke(fn, schema);
        }
    }

    private static void invoke(MemorySegment function, MemorySegment struct) {
        try {
            Stubs.INVOKE.invokeExact(function, struct);
        } catch (Throwable t) {
            throw new IllegalStateException("foreign release callback failed", t);
        }
    }

    /** Our {@code void release(struct ArrowArray*)}. Never throws. */
    static void releaseArray(MemorySegment pointer) {
        try {
            MemorySegment array = pointer.reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
            if (array.get(ADDRESS, ArrowArrayLayout.RELEASE).equals(MemorySegment.NULL)) {
                return;
            }
            long id = array.get(ADDRESS, ArrowArrayLayout.PRIVATE_DATA).address();
            SharedRelease owner = owner(id, "ArrowArray");
            dropReferences(id, owner, releaseArrayNode(array, id));
        } catch (Throwable t) {
            CallbackErrors.record("ArrowArray.release", t);
        }
    }

    /**
     * Releases one node of ours and, inline, the children and dictionary of the same tree that were not
     * moved out (others through their own release); returns how many nodes of tree {@code id} it released.
     */
    private static int releaseArrayNode(MemorySegment array, long id) {
        int released = 1;
        long children = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        MemorySegment childPointers = array.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(children * ADDRESS.byteSize());
        for (long i = 0; i < children; i++) {
            released += releaseArrayChild(childPointers.getAtIndex(ADDRESS, i).reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), id);
        }
        MemorySegment dictionary = array.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        if (!dictionary.equals(MemorySegment.NULL)) {
            released += releaseArrayChild(dictionary.reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), id);
        }
        array.set(ADDRESS, ArrowArrayLayout.RELEASE, MemorySegment.NULL);
        return released;
    }

    private static int releaseArrayChild(MemorySegment child, long id) {
        MemorySegment fn = child.get(ADDRESS, ArrowArrayLayout.RELEASE);
        if (fn.equals(Stubs.ARRAY) && child.get(ADDRESS, ArrowArrayLayout.PRIVATE_DATA).address() == id) {
            return releaseArrayNode(child, id);
        }
        releaseArrayStruct(child);
        return 0;
    }

    /** Our {@code void release(struct ArrowSchema*)}. Never throws. */
    static void releaseSchema(MemorySegment pointer) {
        try {
            MemorySegment schema = pointer.reinterpret(ArrowSchemaLayout.LAYOUT.byteSize());
            if (schema.get(ADDRESS, ArrowSchemaLayout.RELEASE).equals(MemorySegment.NULL)) {
                return;
            }
            long id = schema.get(ADDRESS, ArrowSchemaLayout.PRIVATE_DATA).address();
            SharedRelease owner = owner(id, "ArrowSchema");
            dropReferences(id, owner, releaseSchemaNode(schema, id));
        } catch (Throwable t) {
            CallbackErrors.record("ArrowSchema.release", t);
        }
    }

    private static int releaseSchemaNode(MemorySegment schema, long id) {
        int released = 1;
        long children = schema.get(JAVA_LONG, ArrowSchemaLayout.N_CHILDREN);
        MemorySegment childPointers = schema.get(ADDRESS, ArrowSchemaLayout.CHILDREN).reinterpret(children * ADDRESS.byteSize());
        for (long i = 0; i < children; i++) {
            released += releaseSchemaChild(childPointers.getAtIndex(ADDRESS, i).reinterpret(ArrowSchemaLayout.LAYOUT.byteSize()), id);
        }
        MemorySegment dictionary = schema.get(ADDRESS, ArrowSchemaLayout.DICTIONARY);
        if (!dictionary.equals(MemorySegment.NULL)) {
            released += releaseSchemaChild(dictionary.reinterpret(ArrowSchemaLayout.LAYOUT.byteSize()), id);
        }
        schema.set(ADDRESS, ArrowSchemaLayout.RELEASE, MemorySegment.NULL);
        return released;
    }

    private static int releaseSchemaChild(MemorySegment child, long id) {
        MemorySegment fn = child.get(ADDRESS, ArrowSchemaLayout.RELEASE);
        if (fn.equals(Stubs.SCHEMA) && child.get(ADDRESS, ArrowSchemaLayout.PRIVATE_DATA).address() == id) {
            return releaseSchemaNode(child, id);
        }
        releaseSchemaStruct(child);
        return 0;
    }

    private static SharedRelease owner(long id, String struct) {
        SharedRelease owner = ExportTable.get(id);
        if (owner == null) {
            throw new IllegalStateException(struct + " private_data " + id + " is not a live export (released twice?)");
        }
        return owner;
    }

    /** Drops the references of {@code nodes} released nodes; the last one out frees the tree. */
    private static void dropReferences(long id, SharedRelease owner, int nodes) {
        if (owner.release(nodes)) {
            ExportTable.remove(id);
            owner.free();
        }
    }

    /** @return exported struct nodes (arrays, children, schemas) whose release has not run yet */
    public static long liveExports() {
        return ExportTable.liveNodes();
    }
}
