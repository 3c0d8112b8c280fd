package dev.quiver.device.rocm;

import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

import static dev.quiver.device.rocm.HipConstants.hipErrorInvalidValue;
import static dev.quiver.device.rocm.HipConstants.hipMemoryTypeDevice;
import static dev.quiver.device.rocm.HipConstants.hipMemoryTypeHost;
import static dev.quiver.device.rocm.HipConstants.hipSuccess;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Working with HIP memory that other libraries allocated: where a foreign pointer lives, as an Arrow
 * device. Uses the runtime of the provider it was made from, loading it if needed. Thread-safe.
 */
public final class RocmInterop {
    private final RocmProvider provider;

    /**
     * Interoperation through the HIP runtime of {@code provider}.
     *
     * @param provider the provider whose HIP runtime to use
     */
    public RocmInterop(RocmProvider provider) {
        this.provider = provider;
    }

    /**
     * Asks the runtime ({@code hipPointerGetAttributes}) where a pointer's memory lives, reading the memory
     * type with the numbering of the runtime's major version (ROCm 5 or 6 and later).
     *
     * @param pointer any address
     * @return the Arrow device of the memory, or empty if HIP does not know the pointer
     * @throws RocmException if the runtime fails for another reason
     */
    public Optional<RocmPointerInfo> describe(MemorySegment pointer) {
        HipRuntime hip = provider.runtime();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment attributes = arena.allocate(HipPointerAttributes.LAYOUT);
            int error = hip.api.result(HipFunction.hipPointerGetAttributes, h -> (int) h.invokeExact(attributes, pointer));
            if (error == hipErrorInvalidValue) {
                return Optional.empty();
            }
            if (error != hipSuccess) {
                throw hip.api.failure(HipFunction.hipPointerGetAttributes, error);
            }
            int type = attributes.get(JAVA_INT, HipPointerAttributes.MEMORY_TYPE);
            int device = attributes.get(JAVA_INT, HipPointerAttributes.DEVICE);
            boolean managed = attributes.get(JAVA_INT, HipPointerAttributes.IS_MANAGED) != 0;
            boolean rocm6 = hip.majorVersion() >= 6;
            if (rocm6 && type == HipConstants.Rocm6.UNREGISTERED) {
                return Optional.empty();
            }
            int host = rocm6 ? HipConstants.Rocm6.HOST : hipMemoryTypeHost;
            int deviceMemory = rocm6 ? HipConstants.Rocm6.DEVICE : hipMemoryTypeDevice;
            if (managed || rocm6 && type == HipConstants.Rocm6.MANAGED) {
                return Optional.of(new RocmPointerInfo(DeviceTypeCodes.ROCM, device, true));
            }
            if (type == host) {
                return Optional.of(new RocmPointerInfo(DeviceTypeCodes.ROCM_HOST, device, false));
            }
            if (type == deviceMemory) {
                return Optional.of(new RocmPointerInfo(DeviceTypeCodes.ROCM, device, false));
            }
            throw new IllegalArgumentException("0x" + Long.toHexString(pointer.address()) + " is HIP memory of type " + type
                    + " (hipMemoryType, HIP " + hip.versionText() + "), which is not an Arrow buffer");
        }
    }
}
