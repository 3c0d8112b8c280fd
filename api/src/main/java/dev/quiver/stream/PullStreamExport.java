package dev.quiver.stream;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.CallbackErrors;
import dev.quiver.internal.abi.IdTable;
import dev.quiver.internal.abi.NativeCalls;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.internal.events.StreamBatchEvent;
import dev.quiver.internal.events.Recorder;
import dev.quiver.type.Field;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * One ArrowDeviceArrayStream that Quiver filled for a C consumer: the Java source behind it, and the four
 * callbacks. The struct's {@code private_data} is an id into {@link #LIVE}. Callbacks may come from any
 * thread; a call made while another runs is refused with EBUSY; a release during a call is completed
 * when that call returns; a call after release gets EINVAL. Errors from the source are sticky: every later
 * {@code get_next} returns the same code and message.
 */
final class PullStreamExport {
    static final IdTable<PullStreamExport> LIVE = new IdTable<>();
    private static final long SIZE = ArrowDeviceArrayStreamLayout.LAYOUT.byteSize();

    /** The upcall stubs and the message for released streams, made once on first export. */
    private static final class Stubs {
        static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
        static final MemorySegment GET_SCHEMA = NativeCalls.upcall(LOOKUP, PullStreamExport.class, "getSchema", NativeCalls.INT_ADDRESS_ADDRESS);
        static final MemorySegment GET_NEXT = NativeCalls.upcall(LOOKUP, PullStreamExport.class, "getNext", NativeCalls.INT_ADDRESS_ADDRESS);
        static final MemorySegment GET_LAST_ERROR = NativeCalls.upcall(LOOKUP, PullStreamExport.class, "getLastError", NativeCalls.PTR_PTR);
        static final MemorySegment RELEASE = NativeCalls.upcall(LOOKUP, PullStreamExport.class, "release", NativeCalls.VOID_ADDRESS);
        static final MemorySegment RELEASED = Arena.global().allocateFrom(
                "ArrowDeviceArrayStream: the stream was released; no callback but release may be called on it");
    }

    private final ArraySource source;
    private final Field schema;
    private final DeviceType deviceType;
    /** The imported C stream whose arrays are moved through as they are, or null: decided once, at export. */
    private final DeviceArrayStream relayed;
    private final CallGate gate = new CallGate();
    /** Where error messages live until release; made on the first error (guarded by this). */
    private Arena messages;
    private volatile MemorySegment lastError = MemorySegment.NULL;
    private int failedCode;
    private MemorySegment failedMessage;
    /**
     * What the Java source threw, for a consumer in this JVM (see {@link #javaFailure}): written inside the
     * gate by the failing {@code get_next}, read after it returned by the thread that called it; volatile
     * because C may call the stream from any thread.
     */
    private volatile Throwable failedCause;
    private boolean ended;
    private long index;

    private PullStreamExport(ArraySource source, Field schema, DeviceType deviceType) {
        this.source = source;
        this.schema = schema;
        this.deviceType = deviceType;
        this.relayed = source instanceof ArraySource.Relayed relay && relay.fits(schema, deviceType) ? relay.stream() : null;
    }

    /** Fills {@code out} with a live stream over {@code source}; the consumer owns it from then on. */
    static void export(ArraySource source, Field schema, DeviceType deviceType, MemorySegment out) {
        MemorySegment struct = Pointers.bytes(out, SIZE);
        PullStreamExport state = new PullStreamExport(source, schema, deviceType);
        struct.fill((byte) 0);
        struct.set(JAVA_INT, ArrowDeviceArrayStreamLayout.DEVICE_TYPE, deviceType.code());
        struct.set(ADDRESS, ArrowDeviceArrayStreamLayout.GET_SCHEMA, Stubs.GET_SCHEMA);
        struct.set(ADDRESS, ArrowDeviceArrayStreamLayout.GET_NEXT, Stubs.GET_NEXT);
        struct.set(ADDRESS, ArrowDeviceArrayStreamLayout.GET_LAST_ERROR, Stubs.GET_LAST_ERROR);
        struct.set(ADDRESS, ArrowDeviceArrayStreamLayout.PRIVATE_DATA, LIVE.register(state));
        struct.set(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE, Stubs.RELEASE);
    }

    /** What {@link #call} does inside the gate. */
    private enum Operation { GET_SCHEMA, GET_NEXT }

    private static int call(long self, String name, Operation operation, long out) {
        PullStreamExport state = lookup(self);
        if (state == null) {
            return Errno.EINVAL.code();
        }
        switch (state.gate.enter()) {
            case BUSY -> {
                Thread holder = state.gate.holder();
                return state.error(Errno.EBUSY.code(), name + " was called while another call on this stream runs"
                        + (holder == null ? "" : " (on thread \"" + holder.getName() + "\")")
                        + ": ArrowDeviceArrayStream callbacks must be serialized");
            }
            case CLOSED -> {
                return Errno.EINVAL.code();
            }
            case ENTERED -> { }
        }
        try {
            if (out == 0) {
                return state.error(Errno.EINVAL.code(), name + " was called with a NULL out pointer");
            }
            if (operation == Operation.GET_NEXT) {
                return state.next(out);
            }
            StructWriter.writeSchema(out, state.schema);
            return 0;
        } catch (Throwable t) {
            return state.error(ErrorCodes.codeFor(t), name + " failed: " + ErrorCodes.messageFor(t));
        } finally {
            if (state.gate.exit()) {
                state.free();
            }
        }
    }

    /**
     * What the Java source behind a stream threw, when that stream is one of these exports and its
     * {@code get_next} failed: a consumer in this JVM keeps the exception as the cause of its own, with its
     * type and status, instead of only the code and text C carries.
     *
     * @param self the address of a stream struct, live (its release not yet called)
     * @return the exception, or null if the stream is not one of these exports or did not fail
     */
    static Throwable javaFailure(long self) {
        if (self == 0 || RawMemory.getAddress(self + ArrowDeviceArrayStreamLayout.GET_NEXT) != Stubs.GET_NEXT.address()) {
            return null;
        }
        PullStreamExport state = lookup(self);
        return state == null ? null : state.failedCause;
    }

    private static PullStreamExport lookup(long self) {
        return self == 0 ? null : LIVE.get(RawMemory.getAddress(self + ArrowDeviceArrayStreamLayout.PRIVATE_DATA));
    }

    /** Our {@code get_schema}. Never throws. */
    static int getSchema(long self, long out) {
        try {
            return call(self, "get_schema", Operation.GET_SCHEMA, out);
        } catch (Throwable t) {
            CallbackErrors.record("ArrowDeviceArrayStream.get_schema", t);
            return Errno.EIO.code();
        }
    }

    /** Our {@code get_next}. Never throws. */
    static int getNext(long self, long out) {
        try {
            return call(self, "get_next", Operation.GET_NEXT, out);
        } catch (Throwable t) {
            CallbackErrors.record("ArrowDeviceArrayStream.get_next", t);
            return Errno.EIO.code();
        }
    }

    /** Our {@code get_last_error}: the message of the last failed call, valid until the next call. */
    static MemorySegment getLastError(MemorySegment self) {
        try {
            PullStreamExport state = lookup(self.address());
            return state == null ? Stubs.RELEASED : state.lastError;
        } catch (Throwable t) {
            CallbackErrors.record("ArrowDeviceArrayStream.get_last_error", t);
            return MemorySegment.NULL;
        }
    }

    /** Our {@code release}: marks the struct released, then closes the source (after a running call). */
    static void release(long self) {
        try {
            if (self == 0) {
                throw new IllegalArgumentException("called with NULL");
            }
            MemorySegment struct = Pointers.bytes(MemorySegment.ofAddress(self), SIZE);
            if (struct.get(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE).equals(MemorySegment.NULL)) {
                return;
            }
            PullStreamExport state = LIVE.remove(struct.get(ADDRESS, ArrowDeviceArrayStreamLayout.PRIVATE_DATA));
            struct.set(ADDRESS, ArrowDeviceArrayStreamLayout.RELEASE, MemorySegment.NULL);
            if (state != null && state.gate.close()) {
                state.free();
            }
        } catch (Throwable t) {
            CallbackErrors.record("ArrowDeviceArrayStream.release", t);
        }
    }

    private int next(long out) {
        if (failedCode != 0) {
            lastError = failedMessage;
            return failedCode;
        }
        if (ended) {
            return end(out);
        }
        if (relayed != null) {
            return relay(out);
        }
        DeviceArray array;
        StreamBatchEvent event = Recorder.streamBatch();
        try {
            array = source.next();
        } catch (Throwable t) {
            return fail(t, "the Java source failed at array " + index);
        }
        if (array == null) {
            return end(out);
        }
        try {
            ArrayChecks.check(array, schema, deviceType, index);
            long length = event == null ? 0 : array.length();
            Interchange.exportDevice(array, MemorySegment.ofAddress(out), MemorySegment.NULL);
            BatchEvents.exported(event, BatchEvents.PULL_EXPORT, index, array, length);
        } catch (Throwable t) {
            array.close();
            return fail(t, "array " + index + " could not be handed out");
        }
        index++;
        return 0;
    }

    /** Moves the next array of the relayed C stream into {@code out}, checked as an import checks it. */
    private int relay(long out) {
        boolean moved;
        try {
            moved = relayed.pollInto(out);
        } catch (Throwable t) {
            return fail(t, "the Java source failed at array " + index);
        }
        if (!moved) {
            return end(out);
        }
        index++;
        return 0;
    }

    /** Marks the stream ended and writes the released struct that says so to {@code out}; {@return 0} */
    private int end(long out) {
        ended = true;
        RawMemory.zero(out, ArrowDeviceArrayLayout.LAYOUT.byteSize());
        return 0;
    }

    private int fail(Throwable t, String context) {
        failedCause = t;
        failedCode = ErrorCodes.codeFor(t);
        failedMessage = message("get_next: " + context + ": " + ErrorCodes.messageFor(t));
        lastError = failedMessage;
        return failedCode;
    }

    private int error(int code, String message) {
        lastError = message(message);
        return code;
    }

    /** @return {@code text} as a C string that lives until the stream is released */
    private synchronized MemorySegment message(String text) {
        if (messages == null) {
            messages = Arena.ofShared();
        }
        return messages.allocateFrom(text);
    }

    private void free() {
        try {
            source.close();
        } catch (Throwable t) {
            CallbackErrors.record("ArrowDeviceArrayStream.release (closing the Java source)", t);
        } finally {
            synchronized (this) {
                if (messages != null) {
                    messages.close();
                }
            }
        }
    }
}
