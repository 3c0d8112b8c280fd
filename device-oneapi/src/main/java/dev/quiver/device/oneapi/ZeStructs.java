package dev.quiver.device.oneapi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static java.lang.foreign.MemoryLayout.paddingLayout;
import static java.lang.foreign.MemoryLayout.sequenceLayout;
import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The Level Zero structs this backend passes, spelled out with explicit padding and members named as in
 * {@code ze_api.h} (the header checks compare sizes and offsets), and writers for the descriptors. Every
 * struct starts with {@code stype} and {@code pNext}; descriptors are written zeroed with their
 * {@code stype} and a NULL {@code pNext}.
 */
final class ZeStructs {
    private ZeStructs() {}

    private static MemoryLayout[] header(MemoryLayout... members) {
        MemoryLayout[] all = new MemoryLayout[members.length + 3];
        all[0] = JAVA_INT.withName("stype");
        all[1] = paddingLayout(4);
        all[2] = ADDRESS.withName("pNext");
        System.arraycopy(members, 0, all, 3, members.length);
        return all;
    }

    /** {@code ze_device_properties_t}. */
    static final StructLayout DEVICE_PROPERTIES = MemoryLayout.structLayout(header(
            JAVA_INT.withName("type"), JAVA_INT.withName("vendorId"), JAVA_INT.withName("deviceId"), JAVA_INT.withName("flags"),
            JAVA_INT.withName("subdeviceId"), JAVA_INT.withName("coreClockRate"), JAVA_LONG.withName("maxMemAllocSize"),
            JAVA_INT.withName("maxHardwareContexts"), JAVA_INT.withName("maxCommandQueuePriority"),
            JAVA_INT.withName("numThreadsPerEU"), JAVA_INT.withName("physicalEUSimdWidth"), JAVA_INT.withName("numEUsPerSubslice"),
            JAVA_INT.withName("numSubslicesPerSlice"), JAVA_INT.withName("numSlices"), paddingLayout(4),
            JAVA_LONG.withName("timerResolution"), JAVA_INT.withName("timestampValidBits"),
            JAVA_INT.withName("kernelTimestampValidBits"), sequenceLayout(ZeConstants.ZE_MAX_DEVICE_UUID_SIZE, JAVA_BYTE).withName("uuid"),
            sequenceLayout(ZeConstants.ZE_MAX_DEVICE_NAME, JAVA_BYTE).withName("name")));

    /** {@code ze_device_memory_properties_t}. */
    static final StructLayout DEVICE_MEMORY_PROPERTIES = MemoryLayout.structLayout(header(
            JAVA_INT.withName("flags"), JAVA_INT.withName("maxClockRate"), JAVA_INT.withName("maxBusWidth"), paddingLayout(4),
            JAVA_LONG.withName("totalSize"), sequenceLayout(ZeConstants.ZE_MAX_DEVICE_NAME, JAVA_BYTE).withName("name")));

    /** {@code ze_context_desc_t}. */
    static final StructLayout CONTEXT_DESC = MemoryLayout.structLayout(header(JAVA_INT.withName("flags"), paddingLayout(4)));

    /** {@code ze_command_queue_desc_t}. */
    static final StructLayout COMMAND_QUEUE_DESC = MemoryLayout.structLayout(header(
            JAVA_INT.withName("ordinal"), JAVA_INT.withName("index"), JAVA_INT.withName("flags"), JAVA_INT.withName("mode"),
            JAVA_INT.withName("priority"), paddingLayout(4)));

    /** {@code ze_device_mem_alloc_desc_t}. */
    static final StructLayout DEVICE_MEM_ALLOC_DESC = MemoryLayout.structLayout(header(JAVA_INT.withName("flags"), JAVA_INT.withName("ordinal")));

    /** {@code ze_host_mem_alloc_desc_t}. */
    static final StructLayout HOST_MEM_ALLOC_DESC = MemoryLayout.structLayout(header(JAVA_INT.withName("flags"), paddingLayout(4)));

    /** {@code ze_event_pool_desc_t}. */
    static final StructLayout EVENT_POOL_DESC = MemoryLayout.structLayout(header(JAVA_INT.withName("flags"), JAVA_INT.withName("count")));

    /** {@code ze_event_desc_t}. */
    static final StructLayout EVENT_DESC = MemoryLayout.structLayout(header(
            JAVA_INT.withName("index"), JAVA_INT.withName("signal"), JAVA_INT.withName("wait"), paddingLayout(4)));

    /** @return the byte offset of a member */
    static long offset(StructLayout layout, String member) {
        return layout.byteOffset(groupElement(member));
    }

    /** @return a zeroed struct with its {@code stype} set, in {@code arena} */
    static MemorySegment zeroed(Arena arena, StructLayout layout, int stype) {
        MemorySegment struct = arena.allocate(layout);
        struct.fill((byte) 0);
        struct.set(JAVA_INT, 0, stype);
        return struct;
    }

    /** Sets an {@code int}-sized member. */
    static MemorySegment with(MemorySegment struct, StructLayout layout, String member, int value) {
        struct.set(JAVA_INT, offset(layout, member), value);
        return struct;
    }
}
