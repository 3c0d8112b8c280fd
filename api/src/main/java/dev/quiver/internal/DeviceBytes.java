package dev.quiver.internal;

import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * Moves bytes between any device and the host through the SPI, for the conversions tensor protocols need
 * (unpacking booleans, gathering strided elements, packing masks). Each call completes its copies before it
 * returns. Thread-safe as far as the backend is.
 */
public final class DeviceBytes {
    private static final long ALIGNMENT = 64;

    private DeviceBytes() {}

    /**
     * Reads device bytes into new host memory.
     *
     * @param backend    the device's backend
     * @param deviceType the device type code, which says whether the pointer is an address
     * @param pointer    a device pointer or handle
     * @param byteOffset offset from {@code pointer}; negative only where pointers are addresses
     * @param count      bytes to read
     * @param arena      owns the returned host memory
     * @return {@code count} bytes of host memory
     */
    public static MemorySegment download(BackendDevice backend, int deviceType, MemorySegment pointer, long byteOffset,
                                         long count, Arena arena) {
        MemorySegment host = arena.allocate(Math.max(count, 1), ALIGNMENT).asSlice(0, count);
        if (count == 0) {
            return host;
        }
        MemorySegment source = pointer;
        long offset = byteOffset;
        if (offset < 0) {
            if (!DeviceTypeCodes.pointersAreAddresses(deviceType)) {
                throw new IllegalArgumentException("cannot read " + (-offset) + " bytes before an opaque buffer handle");
            }
            source = MemorySegment.ofAddress(pointer.address() + offset);
            offset = 0;
        }
        backend.copyToHost(source, offset, host, backend.defaultStream());
        backend.synchronizeStream(backend.defaultStream());
        return host;
    }

    /**
     * Allocates device memory and copies host bytes into it.
     *
     * @param backend the device's backend
     * @param host    the bytes to copy
     * @return the new allocation, owned by the caller, who frees it with {@link BackendDevice#free}
     */
    public static MemorySegment upload(BackendDevice backend, MemorySegment host) {
        MemorySegment device = backend.allocate(host.byteSize(), ALIGNMENT);
        try {
            if (host.byteSize() > 0) {
                backend.copyFromHost(host, device, 0, backend.defaultStream());
                backend.synchronizeStream(backend.defaultStream());
            }
            return device;
        } catch (RuntimeException | Error e) {
            try {
                backend.free(device);
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }
}
