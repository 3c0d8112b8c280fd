package dev.quiver.stream;

import dev.quiver.DeviceType;
import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowArrayStreamLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.internal.abi.CallbackErrors;
import dev.quiver.internal.abi.IdTable;
import dev.quiver.internal.abi.NativeCalls;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.RawMemory;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandles;

/**
 * A plain {@code struct ArrowArrayStream} (CPU arrays, as DuckDB, DataFusion and PyArrow hand them out) seen as an
 * {@code ArrowDeviceArrayStream} of device type CPU, so that {@link DeviceArrayStream#importFrom} takes it in
 * with every check it makes: each callback of the device stream calls the plain stream's, and {@code get_next}
 * wraps each {@code ArrowArray} in an {@code ArrowDeviceArray} (device CPU, id -1, no event). The plain stream
 * moves into memory this adapter owns; the device stream's {@code release} releases it, once, and frees that
 * memory. The device stream is never handed out: only the {@link DeviceArrayStream} that imports it calls it,
 * one call at a time and release last, under that stream's gate, so this adapter needs no gate of its own.
 */
final class PlainStreamImport {
    private static final IdTable<PlainStreamImport> LIVE = new IdTable<>();
    private static final long PLAIN_SIZE = ArrowArrayStreamLayout.LAYOUT.byteSize();
    private static final long DEVICE_SIZE = ArrowDeviceArrayStreamLayout.LAYOUT.byteSize();
    private static final long DEVICE_ARRAY_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();

    /** The upcall stubs, made on first use. */
    private static final class Stubs {
        static final MethodHandles.Lookup LOOKUP = MethodHandles.lookup();
        static final MemorySegment GET_SCHEMA = NativeCalls.upcall(LOOKUP, PlainStreamImport.class, "getSchema", NativeCalls.INT_ADDRESS_ADDRESS);
        static final MemorySegment GET_NEXT = NativeCalls.upcall(LOOKUP, PlainStreamImport.class, "getNext", NativeCalls.INT_ADDRESS_ADDRESS);
        static final MemorySegment GET_LAST_ERROR = NativeCalls.upcall(LOOKUP, PlainStreamImport.class, "getLastError", NativeCalls.PTR_PTR);
        static final MemorySegment RELEASE = NativeCalls.upcall(LOOKUP, PlainStreamImport.class, "release", NativeCalls.VOID_ADDRESS);
    }

    /** The plain stream, moved into memory of ours. */
    private final long plain;

    private PlainStreamImport(long plain) {
        this.plain = plain;
    }

    /**
     * Moves a plain stream in and writes the device stream over it.
     *
     * @param plainStream a live {@code struct ArrowArrayStream*}; left released (release NULL)
     * @param out         48 bytes of native memory for the {@code ArrowDeviceArrayStream}
     * @throws IllegalArgumentException if the pointer is NULL, Java heap memory or misaligned
     * @throws InvalidArrowException    if the stream was already released
     */
    static void adapt(MemorySegment plainStream, MemorySegment out) {
        if (plainStream.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("stream pointer is NULL");
        }
        if (!plainStream.isNative() || plainStream.address() % Long.BYTES != 0) {
            throw new IllegalArgumentException("stream pointer 0x" + Long.toHexString(plainStream.address())
                    + " is not an aligned native struct");
        }
        long from = plainStream.address();
        if (RawMemory.getAddress(from + ArrowArrayStreamLayout.RELEASE) == 0) {
            throw new InvalidArrowException("release", "is NULL: the stream was already released or moved");
        }
        long own = NativeHeap.malloc(PLAIN_SIZE);
        RawMemory.copyWords(from, own, PLAIN_SIZE);
        RawMemory.setAddress(from + ArrowArrayStreamLayout.RELEASE, 0);
        long id = LIVE.registerId(new PlainStreamImport(own));
        long struct = out.address();
        RawMemory.zero(struct, DEVICE_SIZE);
        RawMemory.setInt(struct + ArrowDeviceArrayStreamLayout.DEVICE_TYPE, DeviceType.CPU.code());
        RawMemory.setAddress(struct + ArrowDeviceArrayStreamLayout.GET_SCHEMA, Stubs.GET_SCHEMA.address());
        RawMemory.setAddress(struct + ArrowDeviceArrayStreamLayout.GET_NEXT, Stubs.GET_NEXT.address());
        RawMemory.setAddress(struct + ArrowDeviceArrayStreamLayout.GET_LAST_ERROR, Stubs.GET_LAST_ERROR.address());
        RawMemory.setAddress(struct + ArrowDeviceArrayStreamLayout.RELEASE, Stubs.RELEASE.address());
        RawMemory.setAddress(struct + ArrowDeviceArrayStreamLayout.PRIVATE_DATA, id);
    }

    private static PlainStreamImport of(long self) {
        PlainStreamImport state = self == 0 ? null : LIVE.get(RawMemory.getAddress(self + ArrowDeviceArrayStreamLayout.PRIVATE_DATA));
        if (state == null) {
            throw new IllegalStateException("the plain stream behind this device stream was released");
        }
        return state;
    }

    private MemorySegment callback(long offset) {
        return MemorySegment.ofAddress(RawMemory.getAddress(plain + offset));
    }

    static int getSchema(long self, long out) {
        try {
            PlainStreamImport state = of(self);
            return NativeCalls.callInt(state.callback(ArrowArrayStreamLayout.GET_SCHEMA), MemorySegment.ofAddress(state.plain),
                    MemorySegment.ofAddress(out));
        } catch (Throwable t) {
            CallbackErrors.record("ArrowArrayStream.get_schema", t);
            return Errno.EIO.code();
        }
    }

    static int getNext(long self, long out) {
        try {
            PlainStreamImport state = of(self);
            RawMemory.zero(out, DEVICE_ARRAY_SIZE);
            int code = NativeCalls.callInt(state.callback(ArrowArrayStreamLayout.GET_NEXT), MemorySegment.ofAddress(state.plain),
                    MemorySegment.ofAddress(out + ArrowDeviceArrayLayout.ARRAY));
            if (code == 0) {
                RawMemory.setLong(out + ArrowDeviceArrayLayout.DEVICE_ID, -1);
                RawMemory.setInt(out + ArrowDeviceArrayLayout.DEVICE_TYPE, DeviceType.CPU.code());
            }
            return code;
        } catch (Throwable t) {
            CallbackErrors.record("ArrowArrayStream.get_next", t);
            return Errno.EIO.code();
        }
    }

    static MemorySegment getLastError(MemorySegment self) {
        try {
            PlainStreamImport state = of(self.address());
            return NativeCalls.callPointer(state.callback(ArrowArrayStreamLayout.GET_LAST_ERROR), MemorySegment.ofAddress(state.plain));
        } catch (Throwable t) {
            CallbackErrors.record("ArrowArrayStream.get_last_error", t);
            return MemorySegment.NULL;
        }
    }

    static void release(long self) {
        try {
            if (self == 0 || RawMemory.getAddress(self + ArrowDeviceArrayStreamLayout.RELEASE) == 0) {
                return;
            }
            PlainStreamImport state = LIVE.remove(MemorySegment.ofAddress(RawMemory.getAddress(self + ArrowDeviceArrayStreamLayout.PRIVATE_DATA)));
            RawMemory.setAddress(self + ArrowDeviceArrayStreamLayout.RELEASE, 0);
            if (state != null) {
                try {
                    NativeCalls.callVoid(state.callback(ArrowArrayStreamLayout.RELEASE), MemorySegment.ofAddress(state.plain));
                } finally {
                    NativeHeap.free(state.plain);
                }
            }
        } catch (Throwable t) {
            CallbackErrors.record("ArrowArrayStream.release", t);
        }
    }
}
