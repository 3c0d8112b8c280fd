package dev.quiver.stream;

import dev.quiver.Copies;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowArrayStreamLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.abi.PlainExport;
import dev.quiver.internal.abi.CallbackErrors;
import dev.quiver.internal.abi.IdTable;
import dev.quiver.internal.abi.NativeCalls;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;
import java.util.Iterator;
import java.util.Objects;

/**
 * A plain {@code struct ArrowArrayStream} for consumers that speak no C Device interface (DuckDB's
 * {@code duckdb_arrow_scan}): Quiver's own device stream export of CPU arrays ({@link PullStreamExport}, with
 * its threading, error and release rules) behind callbacks that hand each {@code ArrowArray} over without its
 * device fields. Arrays not in CPU memory are copied to the host or refused, as a {@link PlainExport} says,
 * before they reach the device stream. The consumer owns the plain stream and releases it once; that releases
 * the device stream and the source.
 *
 * <p><b>Threading.</b> The callbacks may come from any thread, one at a time: a call made while another runs
 * is refused with {@link Errno#EBUSY} ({@code get_last_error}: NULL) and never touches the state the running
 * call uses; a {@code release} that arrives during a call takes effect when the call returns (the
 * {@link CallGate} of {@link PullStreamExport}).
 */
final class PlainStreamExport {
    private static final IdTable<PlainStreamExport> LIVE = new IdTable<>();
    private static final long PLAIN_SIZE = ArrowArrayStreamLayout.LAYOUT.byteSize();
    private static final long DEVICE_SIZE = ArrowDeviceArrayStreamLayout.LAYOUT.byteSize();
    private static final long DEVICE_ARRAY_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();

    /** The upcall stubs, made on first use. */
    private static final class Stubs {
        static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
        static final MemorySegment GET_SCHEMA = NativeCalls.upcall(LOOKUP, PlainStreamExport.class, "getSchema", NativeCalls.INT_ADDRESS_ADDRESS);
        static final MemorySegment GET_NEXT = NativeCalls.upcall(LOOKUP, PlainStreamExport.class, "getNext", NativeCalls.INT_ADDRESS_ADDRESS);
        static final MemorySegment GET_LAST_ERROR = NativeCalls.upcall(LOOKUP, PlainStreamExport.class, "getLastError", NativeCalls.PTR_PTR);
        static final MemorySegment RELEASE = NativeCalls.upcall(LOOKUP, PlainStreamExport.class, "release", NativeCalls.VOID_ADDRESS);
    }

    /** The device stream this one relays, in memory of ours; then the ArrowDeviceArray each get_next fills. */
    private final long device;
    private final CallGate gate = new CallGate();

    private PlainStreamExport(long device) {
        this.device = device;
    }

    /**
     * Fills {@code out} with a live plain stream over {@code source}.
     *
     * @param source its arrays, each moved to the consumer (or copied to the host and closed)
     * @param schema the field of every array
     * @param out    an unused {@code struct ArrowArrayStream}
     * @param policy what to do with arrays not in CPU memory
     */
    static void export(Iterator<? extends DeviceArray> source, Field schema, MemorySegment out, PlainExport policy) {
        Objects.requireNonNull(policy, "policy");
        long target = Pointers.writableStructAddress(out, ArrowArrayStreamLayout.LAYOUT, "out");
        long device = NativeHeap.calloc(DEVICE_SIZE + DEVICE_ARRAY_SIZE).address();
        try {
            DeviceArrayStream.of(schema, DeviceType.CPU, new HostArrays(source, policy)).exportTo(Pointers.bytes(MemorySegment.ofAddress(device), DEVICE_SIZE));
        } catch (RuntimeException | Error e) {
            NativeHeap.free(device);
            throw e;
        }
        long id = LIVE.registerId(new PlainStreamExport(device));
        RawMemory.zero(target, PLAIN_SIZE);
        RawMemory.setAddress(target + ArrowArrayStreamLayout.GET_SCHEMA, Stubs.GET_SCHEMA.address());
        RawMemory.setAddress(target + ArrowArrayStreamLayout.GET_NEXT, Stubs.GET_NEXT.address());
        RawMemory.setAddress(target + ArrowArrayStreamLayout.GET_LAST_ERROR, Stubs.GET_LAST_ERROR.address());
        RawMemory.setAddress(target + ArrowArrayStreamLayout.PRIVATE_DATA, id);
        RawMemory.setAddress(target + ArrowArrayStreamLayout.RELEASE, Stubs.RELEASE.address());
    }

    private static PlainStreamExport of(long self) {
        PlainStreamExport state = self == 0 ? null : LIVE.get(RawMemory.getAddress(self + ArrowArrayStreamLayout.PRIVATE_DATA));
        if (state == null) {
            throw new IllegalStateException("the stream was released; no callback but release may be called on it");
        }
        return state;
    }

    private MemorySegment callback(long offset) {
        return MemorySegment.ofAddress(RawMemory.getAddress(device + offset));
    }

    static int getSchema(long self, long out) {
        try {
            PlainStreamExport state = of(self);
            return state.gated(() -> NativeCalls.callInt(state.callback(ArrowDeviceArrayStreamLayout.GET_SCHEMA),
                    MemorySegment.ofAddress(state.device), MemorySegment.ofAddress(out)));
        } catch (Throwable t) {
            CallbackErrors.record("ArrowArrayStream.get_schema", t);
            return Errno.EINVAL.code();
        }
    }

    static int getNext(long self, long out) {
        try {
            PlainStreamExport state = of(self);
            return state.gated(() -> {
                long array = state.device + DEVICE_SIZE;
                RawMemory.zero(array, DEVICE_ARRAY_SIZE);
                int code = NativeCalls.callInt(state.callback(ArrowDeviceArrayStreamLayout.GET_NEXT),
                        MemorySegment.ofAddress(state.device), MemorySegment.ofAddress(array));
                if (code == 0) {
                    // move the ArrowArray member: the consumer owns it now (a released one is the end of the stream)
                    RawMemory.copyWords(array + ArrowDeviceArrayLayout.ARRAY, out, ArrowArrayLayout.LAYOUT.byteSize());
                }
                return code;
            });
        } catch (Throwable t) {
            CallbackErrors.record("ArrowArrayStream.get_next", t);
            return Errno.EINVAL.code();
        }
    }

    /**
     * Runs one call inside the gate: EBUSY while another runs, EINVAL once released; frees the stream if a
     * release arrived during the call.
     */
    private int gated(java.util.function.IntSupplier call) {
        switch (gate.enter()) {
            case BUSY -> {
                return Errno.EBUSY.code();
            }
            case CLOSED -> {
                return Errno.EINVAL.code();
            }
            case ENTERED -> { }
        }
        try {
            return call.getAsInt();
        } finally {
            if (gate.exit()) {
                free();
            }
        }
    }

    static MemorySegment getLastError(MemorySegment self) {
        try {
            PlainStreamExport state = of(self.address());
            if (state.gate.enter() != CallGate.Entry.ENTERED) {
                return MemorySegment.NULL;
            }
            try {
                return NativeCalls.callPointer(state.callback(ArrowDeviceArrayStreamLayout.GET_LAST_ERROR),
                        MemorySegment.ofAddress(state.device));
            } finally {
                if (state.gate.exit()) {
                    state.free();
                }
            }
        } catch (Throwable t) {
            CallbackErrors.record("ArrowArrayStream.get_last_error", t);
            return MemorySegment.NULL;
        }
    }

    static void release(long self) {
        try {
            if (self == 0 || RawMemory.getAddress(self + ArrowArrayStreamLayout.RELEASE) == 0) {
                return;
            }
            PlainStreamExport state = LIVE.remove(MemorySegment.ofAddress(RawMemory.getAddress(self + ArrowArrayStreamLayout.PRIVATE_DATA)));
            RawMemory.setAddress(self + ArrowArrayStreamLayout.RELEASE, 0);
            if (state != null && state.gate.close()) {
                state.free();
            }
        } catch (Throwable t) {
            CallbackErrors.record("ArrowArrayStream.release", t);
        }
    }

    /** Releases the device stream (and with it the source) and frees its memory: once, after the last call. */
    private void free() {
        try {
            NativeCalls.callVoid(callback(ArrowDeviceArrayStreamLayout.RELEASE), MemorySegment.ofAddress(device));
        } finally {
            NativeHeap.free(device);
        }
    }

    /** The source's arrays, each in CPU memory: copied to the host (and the original closed) or refused. */
    private record HostArrays(Iterator<? extends DeviceArray> source, PlainExport policy) implements Iterator<DeviceArray>, AutoCloseable {
        @Override
        public boolean hasNext() {
            return source.hasNext();
        }

        @Override
        public DeviceArray next() {
            DeviceArray array = source.next();
            if (array.deviceType().equals(DeviceType.CPU)) {
                return array;
            }
            try (array) {
                if (policy == PlainExport.REFUSE) {
                    throw new IllegalArgumentException(array + " is in " + array.deviceType() + ":" + array.deviceId()
                            + " memory; a plain ArrowArrayStream carries CPU memory only (PlainExport.COPY_TO_HOST copies it)");
                }
                return Copies.toHost(array);
            }
        }

        @Override
        public void close() {
            if (source instanceof AutoCloseable closeable) {
                try {
                    closeable.close();
                } catch (RuntimeException e) {
                    throw e;
                } catch (Exception e) {
                    throw new IllegalStateException("closing the source of a plain stream failed", e);
                }
            }
        }
    }
}
