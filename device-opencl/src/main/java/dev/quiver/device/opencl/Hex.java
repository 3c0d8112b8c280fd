package dev.quiver.device.opencl;

import java.lang.foreign.MemorySegment;

/** Writes OpenCL handles in messages as {@code 0x...}. Stateless; thread-safe. */
final class Hex {
    private Hex() {}

    /**
     * @param handle a handle
     * @return its address in hexadecimal, prefixed with {@code 0x}
     */
    static String of(MemorySegment handle) {
        return "0x" + Long.toHexString(handle.address());
    }
}
