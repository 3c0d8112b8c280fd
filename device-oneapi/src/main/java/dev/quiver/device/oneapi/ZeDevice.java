package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.Once;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.Map;
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
    final MemorySegment driver;
    final MemorySegment context;
    final MemorySegment device;
    final int id;
    final String name;
    final String type;
    final long totalMemory;
    final long maxAllocation;
    private final ZeEvents events;
    private final ConcurrentHashMap<Long, ZeStream> streams = new ConcurrentHashMap<>();
    /** Streams made by {@link #adopt} rather than {@link #createStream}, with how often each was adopted; guarded by itself. */
    private final Map<Long, Integer> adoptions = new HashMap<>();
    private final Once<ZeStream> defaultStream = new Once<>();

    ZeDevice(Bindings<ZeFunction> api, MemorySegment driver, MemorySegment context, MemorySegment device, int id, String name,
             String type, long totalMemory, long maxAllocation) {
        this.api = api;
        this.driver = driver;
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
        try {
            return register(list);
        } catch (RuntimeException e) {
            api.check(ZeFunction.zeCommandListDestroy, h -> (int) h.invokeExact(list));
            throw e;
        }
    }

    private ZeStream register(MemorySegment list) {
        ZeStream stream = new ZeStream(api, list, events.create());
        streams.put(list.address(), stream);
        return stream;
    }

    /**
     * Accepts an immediate command list made outside Quiver on this device and context as a stream, until
     * {@link #forget}; a stream this device already serves (one it made, or adopted before) is returned as is.
     *
     * @param list a {@code ze_command_list_handle_t}
     * @return {@code list}
     * @throws IllegalArgumentException if it is NULL
     */
    MemorySegment adopt(MemorySegment list) {
        if (list.address() == 0) {
            throw new IllegalArgumentException("ze_command_list_handle_t is NULL");
        }
        synchronized (adoptions) {
            Integer count = adoptions.get(list.address());
            if (count != null) {
                adoptions.put(list.address(), count + 1);
            } else if (!streams.containsKey(list.address())) {
                register(list);
                adoptions.put(list.address(), 1);
            }
        }
        return list;
    }

    /**
     * Undoes {@link #adopt}: once a list adopted from outside is forgotten as often as it was adopted (or with
     * {@code destroy}), its stream is synchronised and dropped. With {@code destroy} the list is destroyed too,
     * whoever made it.
     *
     * @param list    what {@link #adopt} returned
     * @param destroy whether to destroy the command list
     * @throws IllegalArgumentException if it is not a live stream of this device, or is the default stream
     *                                  and {@code destroy} is set
     */
    void forget(MemorySegment list, boolean destroy) {
        ZeStream stream = stream(list);
        synchronized (adoptions) {
            Integer count = adoptions.get(list.address());
            if (count == null) {
                if (destroy) {
                    destroy(list);
                }
                return;
            }
            if (count > 1 && !destroy) {
                adoptions.put(list.address(), count - 1);
                return;
            }
            adoptions.remove(list.address());
            streams.remove(list.address());
        }
        if (destroy) {
            stream.destroy();
        } else {
            stream.synchronize();
        }
        events.destroy(stream.event());
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
        synchronized (adoptions) {
            adoptions.remove(handle.address());
            streams.remove(handle.address());
        }
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
