package dev.quiver.memory;

import java.util.Locale;

/**
 * When Quiver uses host memory pinned for a device (page-locked and mapped for its DMA engines:
 * {@code cuMemAllocHost}, {@code hipHostMalloc}, an OpenCL {@code CL_MEM_ALLOC_HOST_PTR} buffer) for host
 * memory that moves to or from that device: the host copies of its arrays ({@link dev.quiver.Copies#toHost}),
 * and the staging buffers through which copies from and to memory Quiver did not allocate (another producer's,
 * an application's {@code malloc}) move in chunks, overlapping the host's {@code memcpy} of one chunk with the
 * device's transfer of the previous one. Pinned memory comes from a pool per device
 * ({@link dev.quiver.Device#pinnedHostPool()}).
 *
 * <p>The policy is process-wide. It starts from the system property {@code quiver.pinnedHost} ({@code auto},
 * {@code always} or {@code never}; {@code auto} when unset). Thread-safe.
 */
public enum PinnedHostPolicy {
    /** Pinned memory for devices whose backend says it pays ({@code BackendDevice.pinsHostMemory()}): discrete GPUs. */
    AUTO,
    /** Pinned memory for every device whose backend can allocate it, even where it brings no speed (a CPU OpenCL device). */
    ALWAYS,
    /** Never: host memory comes from the host's own pool, and copies go straight to the driver. */
    NEVER;

    private static volatile PinnedHostPolicy current = fromProperty(System.getProperty("quiver.pinnedHost"));

    /** {@return the policy in force} */
    public static PinnedHostPolicy current() {
        return current;
    }

    /**
     * Sets the policy for copies that start from now on.
     *
     * @param policy the policy
     */
    public static void set(PinnedHostPolicy policy) {
        current = java.util.Objects.requireNonNull(policy, "policy");
    }

    private static PinnedHostPolicy fromProperty(String value) {
        if (value == null || value.isBlank()) {
            return AUTO;
        }
        try {
            return valueOf(value.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("quiver.pinnedHost must be auto, always or never: \"" + value + "\"");
        }
    }
}
