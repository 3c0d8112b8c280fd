package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.Once;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;

import static dev.quiver.device.oneapi.ZeConstants.ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS;
import static dev.quiver.device.oneapi.ZeConstants.ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC;
import static dev.quiver.device.oneapi.ZeConstants.ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC;
import static dev.quiver.device.oneapi.ZeConstants.ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC;

/**
 * One Level Zero device in its driver's context, with what every memory kind of it shares: the event pools,
 * the default stream and the streams made for it. Lives for the life of the process. Thread-safe.
 */
final class ZeDevice {
    /** Alignment requested for every allocation. */
    static final long ALIGNMENT = 256;

    final Bindings<ZeFunction> api;
    final MemorySegment context;
    final MemorySegment device;
    final int id;
    final String name;
    final String type;
    final long totalMemory;
    final long maxAllocation;
    private final ZeEvents events;
    private final ConcurrentHashMap<Long, ZeStream> streams = new ConcurrentHashMap<>();
    private final Once<ZeStream> defaultStream = new Once<>();

    ZeDevice(Bindings<ZeFunction> api, MemorySegment context, MemorySegment device, int id, String name, String type,
             long totalMemory, long maxAllocation) {
        this.api = api;
        this.context = context;
        this.device = device;
        this.id = id;
        this.name = name;
        this.type = type;
        this.totalMemory = totalMemory;
        this.maxAllocation = maxAllocation;
        this.events = new ZeEvents(api, context, device);
    }

    /** @return the default stream, made on first use and never destroyed */
    ZeStream defaultStream() {
        return defaultStream.get(this::newStream);
    }

    /** @return a new stream, registered until {@link #destroy} */
    ZeStream createStream() {
        return newStream();
    }

    private ZeStream newStream() {
        MemorySegment list;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment desc = ZeStructs.zeroed(arena, ZeStructs.COMMAND_QUEUE_DESC, ZE_STRUCTURE_TYPE_COMMAND_QUEUE_DESC);
            ZeStructs.with(desc, ZeStructs.COMMAND_QUEUE_DESC, "mode", ZE_COMMAND_QUEUE_MODE_ASYNCHRONOUS);
            list = api.handleOut(ZeFunction.zeCommandListCreateImmediate, (h, out) -> (int) h.invokeExact(context, device, desc, out));
        }
        ZeStream stream;
        try {
            stream = new ZeStream(api, list, events.create());
        } catch (RuntimeException e) {
            api.check(ZeFunction.zeCommandListDestroy, h -> (int) h.invokeExact(list));
            throw e;
        }
        streams.put(list.address(), stream);
        return stream;
    }

    /**
     * @param handle a stream handle of this device, or NULL for the default stream
     * @return the stream
     * @throws IllegalArgumentException if it is not a live stream of this device
     */
    ZeStream stream(MemorySegment handle) {
        if (handle.equals(MemorySegment.NULL)) {
            return defaultStream();
        }
        ZeStream stream = streams.get(handle.address());
        if (stream == null) {
            throw new IllegalArgumentException("not a live stream of Level Zero device " + id + ": 0x" + Long.toHexString(handle.address()));
        }
        return stream;
    }

    /** Destroys a stream made by {@link #createStream}, after its work completes. */
    void destroy(MemorySegment handle) {
        ZeStream stream = stream(handle);
        if (stream == defaultStream()) {
            throw new IllegalArgumentException("the default stream of Level Zero device " + id + " cannot be destroyed");
        }
        streams.remove(handle.address());
        stream.destroy();
        events.destroy(stream.event());
    }

    /** @return {@code size} bytes of device memory ({@code zeMemAllocDevice}) */
    MemorySegment allocateDevice(long size) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment desc = ZeStructs.zeroed(arena, ZeStructs.DEVICE_MEM_ALLOC_DESC, ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
            return api.handleOut(ZeFunction.zeMemAllocDevice, (h, out) -> (int) h.invokeExact(context, desc, size, ALIGNMENT, device, out));
        }
    }

    /** @return {@code size} bytes of host memory the device can access ({@code zeMemAllocHost}) */
    MemorySegment allocateHost(long size) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment desc = ZeStructs.zeroed(arena, ZeStructs.HOST_MEM_ALLOC_DESC, ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
            return api.handleOut(ZeFunction.zeMemAllocHost, (h, out) -> (int) h.invokeExact(context, desc, size, ALIGNMENT, out));
        }
    }

    /** @return {@code size} bytes of shared memory associated with this device ({@code zeMemAllocShared}) */
    MemorySegment allocateShared(long size) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment deviceDesc = ZeStructs.zeroed(arena, ZeStructs.DEVICE_MEM_ALLOC_DESC, ZE_STRUCTURE_TYPE_DEVICE_MEM_ALLOC_DESC);
            MemorySegment hostDesc = ZeStructs.zeroed(arena, ZeStructs.HOST_MEM_ALLOC_DESC, ZE_STRUCTURE_TYPE_HOST_MEM_ALLOC_DESC);
            return api.handleOut(ZeFunction.zeMemAllocShared,
                    (h, out) -> (int) h.invokeExact(context, deviceDesc, hostDesc, size, ALIGNMENT, device, out));
        }
    }

    /** Frees any USM allocation of this context ({@code zeMemFree}). */
    void free(MemorySegment pointer) {
        api.check(ZeFunction.zeMemFree, h -> (int) h.invokeExact(context, pointer));
    }
}
