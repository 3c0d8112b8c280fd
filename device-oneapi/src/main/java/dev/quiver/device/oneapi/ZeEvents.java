package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.Bindings;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;

import static dev.quiver.device.oneapi.ZeConstants.ZE_EVENT_POOL_FLAG_HOST_VISIBLE;
import static dev.quiver.device.oneapi.ZeConstants.ZE_EVENT_SCOPE_FLAG_HOST;
import static dev.quiver.device.oneapi.ZeConstants.ZE_STRUCTURE_TYPE_EVENT_DESC;
import static dev.quiver.device.oneapi.ZeConstants.ZE_STRUCTURE_TYPE_EVENT_POOL_DESC;
import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Host-visible Level Zero events of one device, made from event pools of {@value #POOL_SIZE} that are created
 * as needed and kept for the life of the process; each event takes a free slot of a pool and gives it back
 * when destroyed. The backend uses these events internally, to wait for a command list on the host. Thread-safe.
 */
final class ZeEvents {
    static final int POOL_SIZE = 64;

    private record Slot(MemorySegment pool, int index) {}

    private final Bindings<ZeFunction> api;
    private final MemorySegment context;
    private final MemorySegment device;
    private final Deque<Slot> free = new ArrayDeque<>();
    private final Map<Long, Slot> used = new HashMap<>();

    ZeEvents(Bindings<ZeFunction> api, MemorySegment context, MemorySegment device) {
        this.api = api;
        this.context = context;
        this.device = device;
    }

    /** @return a new event in the reset state, owned by the caller, released with {@link #destroy} */
    synchronized MemorySegment create() {
        if (free.isEmpty()) {
            addPool();
        }
        Slot slot = free.pop();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment desc = ZeStructs.zeroed(arena, ZeStructs.EVENT_DESC, ZE_STRUCTURE_TYPE_EVENT_DESC);
            ZeStructs.with(desc, ZeStructs.EVENT_DESC, "index", slot.index());
            ZeStructs.with(desc, ZeStructs.EVENT_DESC, "signal", ZE_EVENT_SCOPE_FLAG_HOST);
            ZeStructs.with(desc, ZeStructs.EVENT_DESC, "wait", ZE_EVENT_SCOPE_FLAG_HOST);
            MemorySegment pool = slot.pool();
            MemorySegment event = api.handleOut(ZeFunction.zeEventCreate, (h, out) -> (int) h.invokeExact(pool, desc, out));
            used.put(event.address(), slot);
            return event;
        } catch (RuntimeException e) {
            free.push(slot);
            throw e;
        }
    }

    /** Destroys an event made by {@link #create} and frees its slot. */
    synchronized void destroy(MemorySegment event) {
        Slot slot = used.remove(event.address());
        if (slot == null) {
            throw new IllegalArgumentException("not an event of this device: 0x" + Long.toHexString(event.address()));
        }
        api.check(ZeFunction.zeEventDestroy, h -> (int) h.invokeExact(event));
        free.push(slot);
    }

    private void addPool() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment desc = ZeStructs.zeroed(arena, ZeStructs.EVENT_POOL_DESC, ZE_STRUCTURE_TYPE_EVENT_POOL_DESC);
            ZeStructs.with(desc, ZeStructs.EVENT_POOL_DESC, "flags", ZE_EVENT_POOL_FLAG_HOST_VISIBLE);
            ZeStructs.with(desc, ZeStructs.EVENT_POOL_DESC, "count", POOL_SIZE);
            MemorySegment devices = arena.allocate(ADDRESS);
            devices.set(ADDRESS, 0, device);
            MemorySegment pool = api.handleOut(ZeFunction.zeEventPoolCreate, (h, out) -> (int) h.invokeExact(context, desc, 1, devices, out));
            for (int i = POOL_SIZE - 1; i >= 0; i--) {
                free.push(new Slot(pool, i));
            }
        }
    }
}
