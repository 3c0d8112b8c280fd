package dev.quiver.device.metal;

import dev.quiver.device.ffm.MemoryKind;
import dev.quiver.spi.DeviceTypeCodes;

import java.util.Locale;

/**
 * The storage mode of the {@code MTLBuffer}s a Metal device allocates ({@code MTLResourceOptions}), which
 * decides what an Arrow buffer pointer of {@code ARROW_DEVICE_METAL} is.
 */
public enum MetalStorage {
    /**
     * {@code MTLResourceStorageModePrivate}: GPU-only memory. A buffer pointer is the {@code id<MTLBuffer>}
     * itself, an opaque handle: never add offsets to it (offsets travel beside it) or dereference it. The
     * default.
     */
    PRIVATE(new MemoryKind(DeviceTypeCodes.METAL, "METAL", false, "newBufferWithLength:options: (MTLResourceStorageModePrivate)"), 2L << 4),
    /**
     * {@code MTLResourceStorageModeShared}: memory both the CPU and GPU address (unified memory on Apple
     * silicon). A buffer pointer is the buffer's {@code contents} address, host accessible; the backend maps
     * it back to its {@code MTLBuffer}.
     */
    SHARED(new MemoryKind(DeviceTypeCodes.METAL, "METAL", true, "newBufferWithLength:options: (MTLResourceStorageModeShared)"), 0);

    /** {@code MTLResourceStorageModeShared}, as {@code MTLResourceOptions}. */
    static final long SHARED_OPTIONS = 0;

    final MemoryKind kind;
    final long options;

    MetalStorage(MemoryKind kind, long options) {
        this.kind = kind;
        this.options = options;
    }

    /**
     * {@return the storage mode}
     * @param name {@code private} or {@code shared}, in any case
     * @throws IllegalArgumentException naming the choices for any other name
     */
    public static MetalStorage parse(String name) {
        for (MetalStorage storage : values()) {
            if (storage.name().equalsIgnoreCase(name.strip())) {
                return storage;
            }
        }
        throw new IllegalArgumentException("unknown Metal storage mode \"" + name + "\": use private or shared");
    }

    @Override
    public String toString() {
        return name().toLowerCase(Locale.ROOT);
    }
}
