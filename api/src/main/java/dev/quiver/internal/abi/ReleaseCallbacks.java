package dev.quiver.internal.abi;

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

    /** Where the fields release touches sit in each of the two struct kinds. */
    private enum Shape {
        ARRAY("ArrowArray", ArrowArrayLayout.LAYOUT.byteSize(), ArrowArrayLayout.N_CHILDREN, ArrowArrayLayout.CHILDREN,
                ArrowArrayLayout.DICTIONARY, ArrowArrayLayout.RELEASE, ArrowArrayLayout.PRIVATE_DATA),
        SCHEMA("ArrowSchema", ArrowSchemaLayout.LAYOUT.byteSize(), ArrowSchemaLayout.N_CHILDREN, ArrowSchemaLayout.CHILDREN,
                ArrowSchemaLayout.DICTIONARY, ArrowSchemaLayout.RELEASE, ArrowSchemaLayout.PRIVATE_DATA);

        final String name;
        final long size;
        final long nChildren;
        final long children;
        final long dictionary;
        final long release;
        final long privateData;

        Shape(String name, long size, long nChildren, long children, long dictionary, long release, long privateData) {
            this.name = name;
            this.size = size;
            this.nChildren = nChildren;
            this.children = children;
            this.dictionary = dictionary;
            this.release = release;
            this.privateData = privateData;
        }

        MemorySegment stub() {
            return this == ARRAY ? Stubs.ARRAY : Stubs.SCHEMA;
        }
    }

    /**
     * Calls the release callback of an ArrowArray, ours or a foreign one, if it is not released yet.
     *
     * @param array an ArrowArray (at least 80 bytes)
     */
    public static void releaseArrayStruct(MemorySegment array) {
        releaseStruct(array, Shape.ARRAY);
    }

    /**
     * Calls the release callback of an ArrowSchema, ours or a foreign one, if it is not released yet.
     *
     * @param schema an ArrowSchema (at least 72 bytes)
     */
    public static void releaseSchemaStruct(MemorySegment schema) {
        releaseStruct(schema, Shape.SCHEMA);
    }

    private static void releaseStruct(MemorySegment struct, Shape shape) {
        MemorySegment fn = struct.get(ADDRESS, shape.release);
        if (fn.equals(MemorySegment.NULL)) {
            return;
        }
        if (fn.equals(shape.stub())) {
            release(struct, shape);
        } else {
            try {
                Stubs.INVOKE.invokeExact(fn, struct);
            } catch (Throwable t) {
                throw new IllegalStateException("foreign " + shape.name + " release callback failed", t);
            }
        }
    }

    /** Our {@code void release(struct ArrowArray*)}. Never throws. */
    static void releaseArray(MemorySegment pointer) {
        release(pointer, Shape.ARRAY);
    }

    /** Our {@code void release(struct ArrowSchema*)}. Never throws. */
    static void releaseSchema(MemorySegment pointer) {
        release(pointer, Shape.SCHEMA);
    }

    private static void release(MemorySegment pointer, Shape shape) {
        try {
            MemorySegment struct = pointer.reinterpret(shape.size);
            if (struct.get(ADDRESS, shape.release).equals(MemorySegment.NULL)) {
                return;
            }
            long id = struct.get(ADDRESS, shape.privateData).address();
            SharedRelease owner = ExportTable.get(id);
            if (owner == null) {
                throw new IllegalStateException(shape.name + " private_data " + id + " is not a live export (released twice?)");
            }
            if (owner.release(releaseNode(struct, id, shape))) {
                ExportTable.remove(id);
                owner.free();
            }
        } catch (Throwable t) {
            CallbackErrors.record(shape.name + ".release", t);
        }
    }

    /**
     * Releases one node of ours and, inline, the children and dictionary of the same tree that were not
     * moved out (others through their own release); returns how many nodes of tree {@code id} it released.
     */
    private static int releaseNode(MemorySegment struct, long id, Shape shape) {
        int released = 1;
        long n = struct.get(JAVA_LONG, shape.nChildren);
        MemorySegment children = struct.get(ADDRESS, shape.children).reinterpret(n * ADDRESS.byteSize());
        for (long i = 0; i < n; i++) {
            released += releaseChild(children.getAtIndex(ADDRESS, i).reinterpret(shape.size), id, shape);
        }
        MemorySegment dictionary = struct.get(ADDRESS, shape.dictionary);
        if (!dictionary.equals(MemorySegment.NULL)) {
            released += releaseChild(dictionary.reinterpret(shape.size), id, shape);
        }
        struct.set(ADDRESS, shape.release, MemorySegment.NULL);
        return released;
    }

    private static int releaseChild(MemorySegment child, long id, Shape shape) {
        MemorySegment fn = child.get(ADDRESS, shape.release);
        if (fn.equals(shape.stub()) && child.get(ADDRESS, shape.privateData).address() == id) {
            return releaseNode(child, id, shape);
        }
        releaseStruct(child, shape);
        return 0;
    }

    /** @return exported struct nodes (arrays, children, schemas) whose release has not run yet */
    public static long liveExports() {
        return ExportTable.liveNodes();
    }
}
