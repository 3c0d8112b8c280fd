package dev.quiver;

/**
 * What a device can do beyond holding memory, for {@link Device#supports(DeviceFeature)} and for choosing a
 * device by what a library needs ({@link Devices#best(java.util.function.Predicate)}), instead of probing by
 * catching exceptions.
 */
public enum DeviceFeature {
    /**
     * Events: {@link DeviceStream#recordEvent()}, {@link Device#adoptEvent}, arrays exported with a
     * {@code sync_event}. Without it (the CPU), work completes before a call returns.
     */
    EVENTS,
    /** The host addresses the device's memory directly: buffers and arrays on it can be read in place. */
    HOST_ACCESS,
    /**
     * Host memory pinned for the device ({@link Device#pinnedHostPool()}), which it copies to and from faster
     * than pageable memory.
     */
    PINNED_HOST_MEMORY,
    /**
     * Memory released in stream order: {@link DeviceBuffer#closeAfter(DeviceStream)} and
     * {@link DeviceArray#closeAfter(DeviceStream)} return at once and the memory goes back to the pool when the
     * work enqueued before completes. Without it they wait for the stream.
     */
    STREAM_ORDERED_RELEASE,
    /** The backend loaded a vendor library that {@link Device#vendorLibrary()} lends. */
    VENDOR_LIBRARY
}
