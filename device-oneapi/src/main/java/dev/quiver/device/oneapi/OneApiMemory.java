package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.MemoryKind;
import dev.quiver.spi.DeviceTypeCodes;

import java.util.Locale;

/**
 * The three kinds of Level Zero unified shared memory (USM), all {@code ARROW_DEVICE_ONEAPI}: Arrow has one
 * device type for oneAPI, so a provider serves one kind, chosen when it is made. USM pointers are virtual
 * addresses, so byte offsets may be added to them.
 */
public enum OneApiMemory {
    /** {@code zeMemAllocDevice}: device memory, not host accessible. The default. */
    DEVICE(new MemoryKind(DeviceTypeCodes.ONEAPI, "ONEAPI", false, "zeMemAllocDevice")),
    /** {@code zeMemAllocShared}: shared memory, migrating between host and device; host accessible. */
    SHARED(new MemoryKind(DeviceTypeCodes.ONEAPI, "ONEAPI", true, "zeMemAllocShared")),
    /** {@code zeMemAllocHost}: host memory the device can access; host accessible. */
    HOST(new MemoryKind(DeviceTypeCodes.ONEAPI, "ONEAPI", true, "zeMemAllocHost"));

    final MemoryKind kind;

    OneApiMemory(MemoryKind kind) {
        this.kind = kind;
    }

    /**
     * {@return the kind}
     * @param name {@code device}, {@code shared} or {@code host}, in any case
     * @throws IllegalArgumentException naming the choices for any other name
     */
    public static OneApiMemory parse(String name) {
        for (OneApiMemory memory : values()) {
            if (memory.name().equalsIgnoreCase(name.strip())) {
                return memory;
            }
        }
        throw new IllegalArgumentException("unknown oneAPI memory kind \"" + name + "\": use device, shared or host");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
