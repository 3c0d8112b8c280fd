package dev.quiver.internal.abi;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;


/**
 * The release callbacks of structs Quiver exports, and the calling of foreign release callbacks.
 *
 * <p>Our callbacks may be called from any native thread. They never throw: failures are recorded by
 * {@link CallbackErrors}. Each marks its struct released ({@code release = NULL}) before freeing anything,
 * releases the children and dictionary that were not moved out, then drops its node's reference to the
 * shared memory of the tree. The stubs are made on first use, never at class initialisation of the API.
 */
public final class ReleaseCallbacks {
    private ReleaseCallbacks() {}

    /** Upcall stubs, made once, on first use. */
    private static final class Stubs {
        // global stubs: their addresses stay valid for the life of the process
        static final long ARRAY_ADDRESS = NativeCalls.upcall(MethodHandles.lookup(), ReleaseCallbacks.class, "releaseArray", NativeCalls.VOID_ADDRESS).address();
        static final long SCHEMA_ADDRESS = NativeCalls.upcall(MethodHandles.lookup(), ReleaseCallbacks.class, "releaseSchema", NativeCalls.VOID_ADDRESS).address();
    }

    /** @return the address of our {@code ArrowArray.release}, as a number */
    static long arrayReleaseAddress() {
        return Stubs.ARRAY_ADDRESS;
    }

    /** @return the address of our {@code ArrowSchema.release}, as a number */
    static long schemaReleaseAddress() {
        return Stubs.SCHEMA_ADDRESS;
    }

    /** Where the fields release touches sit in each of the two struct kinds. */
    private enum Shape {
        ARRAY("ArrowArray", ArrowArrayLayout.N_CHILDREN, ArrowArrayLayout.CHILDREN,
                ArrowArrayLayout.DICTIONARY, ArrowArrayLayout.RELEASE, ArrowArrayLayout.PRIVATE_DATA),
        SCHEMA("ArrowSchema", ArrowSchemaLayout.N_CHILDREN, ArrowSchemaLayout.CHILDREN,
                ArrowSchemaLayout.DICTIONARY, ArrowSchemaLayout.RELEASE, ArrowSchemaLayout.PRIVATE_DATA);

        final String name;
        final long nChildren;
        final long children;
        final long dictionary;
        final long release;
        final long privateData;

        Shape(String name, long nChildren, long children, long dictionary, long release, long privateData) {
            this.name = name;
            this.nChildren = nChildren;
            this.children = children;
            this.dictionary = dictionary;
            this.release = release;
            this.privateData = privateData;
        }

        long stub() {
            return this == ARRAY ? Stubs.ARRAY_ADDRESS : Stubs.SCHEMA_ADDRESS;
        }
    }

    /**
     * Calls the release callback of an ArrowArray, ours or a foreign one, if it is not released yet.
     *
     * @param array an ArrowArray (at least 80 bytes)
     */
    public static void releaseArrayStruct(MemorySegment array) {
        releaseStruct(array.address(), Shape.ARRAY);
    }

    /**
     * Calls the release callback of an ArrowArray at a raw address, as {@link #releaseArrayStruct} does.
     *
     * @param array the address of an ArrowArray
     */
    public static void releaseArrayStruct(long array) {
        releaseStruct(array, Shape.ARRAY);
    }

    /**
     * Calls the release callback of an ArrowSchema, ours or a foreign one, if it is not released yet.
     *
     * @param schema an ArrowSchema (at least 72 bytes)
     */
    public static void releaseSchemaStruct(MemorySegment schema) {
        releaseStruct(schema.address(), Shape.SCHEMA);
    }

    /**
     * Calls the release callback of an ArrowSchema at a raw address, as {@link #releaseSchemaStruct} does.
     *
     * @param schema the address of an ArrowSchema
     */
    public static void releaseSchemaStruct(long schema) {
        releaseStruct(schema, Shape.SCHEMA);
    }

    private static void releaseStruct(long struct, Shape shape) {
        long fn = RawMemory.getAddress(struct + shape.release);
        if (fn == 0) {
            return;
        }
        if (fn == shape.stub()) {
            release(struct, shape);
        } else {
            try {
                NativeCalls.callVoid(MemorySegment.ofAddress(fn), MemorySegment.ofAddress(struct));
            } catch (RuntimeException e) {
                throw new IllegalStateException("foreign " + shape.name + " release callback failed", e);
            }
        }
    }

    /** Our {@code void release(struct ArrowArray*)}. Never throws. */
    static void releaseArray(long pointer) {
        release(pointer, Shape.ARRAY);
    }

    /** Our {@code void release(struct ArrowSchema*)}. Never throws. */
    static void releaseSchema(long pointer) {
        release(pointer, Shape.SCHEMA);
    }

    private static void release(long struct, Shape shape) {
        try {
            if (struct == 0) {
                throw new IllegalArgumentException("called with NULL");
            }
            if (RawMemory.getAddress(struct + shape.release) == 0) {
                return;
            }
            long id = RawMemory.getAddress(struct + shape.privateData);
            int slot = ExportTable.find(id);
            if (slot < 0) {
                throw new IllegalStateException(shape.name + " private_data " + id + " is not a live export (released twice?)");
            }
            if (!ExportTable.released(slot, id, releaseNode(struct, id, shape))) {
                throw new IllegalStateException(shape.name + " private_data " + id + ": the exported tree was released more often than it was referenced");
            }
        } catch (Throwable t) {
            CallbackErrors.record(shape.name + ".release", t);
        }
    }

    /**
     * Releases one node of ours and, inline, the children and dictionary of the same tree that were not
     * moved out (others through their own release); returns how many nodes of tree {@code id} it released.
     */
    private static int releaseNode(long struct, long id, Shape shape) {
        int released = 1;
        long n = RawMemory.getLong(struct + shape.nChildren);
        long children = RawMemory.getAddress(struct + shape.children);
        for (long i = 0; i < n; i++) {
            released += releaseChild(RawMemory.getAddress(children + i * Long.BYTES), id, shape);
        }
        long dictionary = RawMemory.getAddress(struct + shape.dictionary);
        if (dictionary != 0) {
            released += releaseChild(dictionary, id, shape);
        }
        RawMemory.setAddress(struct + shape.release, 0);
        return released;
    }

    private static int releaseChild(long child, long id, Shape shape) {
        long fn = RawMemory.getAddress(child + shape.release);
        if (fn == shape.stub() && RawMemory.getAddress(child + shape.privateData) == id) {
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
