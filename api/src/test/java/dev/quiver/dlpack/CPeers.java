package dev.quiver.dlpack;

import dev.quiver.testkit.CLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * The C side of the DLPack tests: {@code dlpack_v1_peer.c} (our declarations of the 1.x layouts, the
 * versioned struct) and {@code dlpack_v06_peer.c} (Debian's libdlpack-dev header, the legacy struct), each a
 * producer whose deleter calls C counts per tensor and a consumer that checks the producer rules, copies the
 * values out and calls the deleter. Compiled on first use; thread-safe.
 */
final class CPeers {
    /** The rules the C consumers check, by the code they return negated (see dl_tensor_peer.h). */
    static final List<String> RULES = List.of("ok", "NULL tensor", "NULL deleter", "version is not 1.3", "NULL shape with ndim > 0",
            "NULL strides with ndim > 0", "data is not NULL for a tensor without elements", "lanes != 1", "data is not host memory",
            "values do not fit");

    private static final CLibrary V1 = CLibrary.fromResources(CPeers.class,
            List.of("dlpack_v1.h", "dl_tensor_peer.h", "dlpack_v1_peer.c"), List.of());
    private static final CLibrary V06 = CLibrary.fromResources(CPeers.class, List.of("dl_tensor_peer.h", "dlpack_v06_peer.c"), List.of());

    private static final MethodHandle V1_PRODUCE = V1.function("v1_produce", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT,
            JAVA_LONG, JAVA_INT, JAVA_INT, JAVA_BYTE, JAVA_BYTE, JAVA_SHORT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG,
            JAVA_INT, ADDRESS));
    private static final MethodHandle V1_FOREIGN_MAJOR = V1.function("v1_produce_foreign_major",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    private static final MethodHandle V1_DELETER_CALLS = V1.function("v1_deleter_calls", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle V1_CONSUME = V1.function("v1_consume", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT,
            ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT));
    private static final MethodHandle V06_PRODUCE = V06.function("v06_produce", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT,
            JAVA_BYTE, JAVA_BYTE, JAVA_SHORT, JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_INT, ADDRESS));
    private static final MethodHandle V06_DELETER_CALLS = V06.function("v06_deleter_calls", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle V06_CONSUME = V06.function("v06_consume", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT,
            ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT));

    private CPeers() {}

    /** Which struct, and so which C peer. */
    enum Struct {
        /** {@code DLManagedTensorVersioned}, from {@code dlpack_v1_peer.c}. */
        VERSIONED,
        /** {@code DLManagedTensor}, from {@code dlpack_v06_peer.c} (Debian's header). */
        LEGACY
    }

    /**
     * A tensor C produced.
     *
     * @param struct  which struct
     * @param tensor  the managed tensor pointer
     * @param slot    the C slot counting its deleter calls
     */
    record Produced(Struct struct, MemorySegment tensor, int slot) {
        /** @return how often C has seen its deleter called */
        int deleterCalls() {
            return CPeers.deleterCalls(struct, slot);
        }

        /** @return the {@code dl_tensor.data} C set */
        long dataAddress() {
            long tensorOffset = struct == Struct.VERSIONED ? 32 : 0;
            return tensor.reinterpret(tensorOffset + 8).get(ADDRESS, tensorOffset).address();
        }
    }

    /**
     * What a C consumer found.
     *
     * @param rule        0, or the index in {@link #RULES} of the producer rule broken
     * @param text        the tensor described
     * @param values      the elements in C order, if asked for
     * @param dataAddress {@code dl_tensor.data}
     */
    record Consumed(int rule, String text, MemorySegment values, long dataAddress) {
        /** @return this, after checking that C found no broken producer rule */
        Consumed ok() {
            if (rule != 0) {
                throw new AssertionError("the C consumer found a broken producer rule: " + RULES.get(rule) + " (" + text + ")");
            }
            return this;
        }
    }

    static Produced produce(Struct struct, TensorSpec spec) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment shape = arena.allocateFrom(JAVA_LONG, spec.shape());
            MemorySegment strides = spec.strides() == null ? MemorySegment.NULL : arena.allocateFrom(JAVA_LONG, spec.strides());
            MemorySegment bytes = spec.bytes() == null ? MemorySegment.NULL : arena.allocateFrom(JAVA_BYTE, spec.bytes());
            long nBytes = spec.bytes() == null ? -1 : spec.bytes().length;
            MemorySegment out = arena.allocate(ADDRESS);
            int slot = switch (struct) {
                case VERSIONED -> (int) V1_PRODUCE.invokeExact(spec.major(), spec.minor(), spec.flags(), spec.deviceType(), spec.deviceId(),
                        (byte) spec.code(), (byte) spec.bits(), (short) spec.lanes(), spec.shape().length, shape, strides, spec.byteOffset(),
                        bytes, nBytes, spec.withDeleter() ? 1 : 0, out);
                case LEGACY -> (int) V06_PRODUCE.invokeExact(spec.deviceType(), spec.deviceId(), (byte) spec.code(), (byte) spec.bits(),
                        (short) spec.lanes(), spec.shape().length, shape, strides, spec.byteOffset(), bytes, nBytes,
                        spec.withDeleter() ? 1 : 0, out);
            };
            if (slot < 0) {
                throw new AssertionError("the C producer ran out of slots");
            }
            return new Produced(struct, out.get(ADDRESS, 0), slot);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** A versioned tensor of major version {@code major} whose other fields are all poison. */
    static Produced produceForeignMajor(int major, boolean withDeleter) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            int slot = (int) V1_FOREIGN_MAJOR.invokeExact(major, withDeleter ? 1 : 0, out);
            return new Produced(Struct.VERSIONED, out.get(ADDRESS, 0), slot);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int deleterCalls(Struct struct, int slot) {
        try {
            return struct == Struct.VERSIONED ? (int) V1_DELETER_CALLS.invokeExact(slot) : (int) V06_DELETER_CALLS.invokeExact(slot);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Hands an exported tensor to a C consumer, which calls its deleter once.
     *
     * @param struct          which struct the tensor is
     * @param tensor          the managed tensor
     * @param valueBytes      room for the values, 0 not to copy them (device memory)
     * @param deleterOnThread whether C calls the deleter from a thread it creates
     * @param arena           owns the returned values
     * @return what C found
     */
    static Consumed consume(Struct struct, MemorySegment tensor, long valueBytes, boolean deleterOnThread, Arena arena) {
        MemorySegment text = arena.allocate(512);
        MemorySegment values = arena.allocate(Math.max(valueBytes, 1), 8);
        MemorySegment data = arena.allocate(JAVA_LONG);
        try {
            int copy = valueBytes > 0 ? 1 : 0;
            int thread = deleterOnThread ? 1 : 0;
            int rc = struct == Struct.VERSIONED
                    ? (int) V1_CONSUME.invokeExact(tensor, copy, text, text.byteSize(), values, valueBytes, data, thread)
                    : (int) V06_CONSUME.invokeExact(tensor, copy, text, text.byteSize(), values, valueBytes, data, thread);
            return new Consumed(-rc, text.getString(0, StandardCharsets.US_ASCII), values.asSlice(0, valueBytes), data.get(JAVA_LONG, 0));
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            return r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return new IllegalStateException(t);
    }
}
