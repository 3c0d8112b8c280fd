package dev.quiver.device.opencl;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The OpenCL objects of one kind (queues, events) that one device adopted: made outside Quiver, validated
 * (or handed out by this device, such as a queue of {@code createStream}), validated and retained by the
 * device, until forgotten. A handle may be adopted several times: each adoption holds its own reference and
 * each {@link #forget} lets go of one. Thread-safe.
 */
final class AdoptedHandles {
    private final String kind;
    private final String deviceName;
    /** Adoptions not yet forgotten, per handle address. */
    private final ConcurrentHashMap<Long, Integer> live = new ConcurrentHashMap<>();

    /**
     * @param kind       what the handles are, for messages ({@code "cl_command_queue"}, {@code "cl_event"})
     * @param deviceName the device's name, for messages
     */
    AdoptedHandles(String kind, String deviceName) {
        this.kind = kind;
        this.deviceName = deviceName;
    }

    /**
     * Adopts a handle: validates and retains it, then counts the adoption; if validation throws, nothing
     * is counted.
     *
     * @param handle            the handle
     * @param validateAndRetain checks the handle belongs to the device and retains it, or throws
     * @return the handle as a plain address
     * @throws IllegalArgumentException if the handle is NULL or of another device
     */
    MemorySegment adopt(MemorySegment handle, Consumer<MemorySegment> validateAndRetain) {
        if (handle.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("cannot adopt a NULL " + kind);
        }
        MemorySegment plain = MemorySegment.ofAddress(handle.address());
        validateAndRetain.accept(plain);
        live.merge(plain.address(), 1, Integer::sum);
        return plain;
    }

    /**
     * @param handle a handle
     * @return whether it is adopted
     */
    boolean contains(MemorySegment handle) {
        return live.containsKey(handle.address());
    }

    /**
     * Forgets one adoption of a handle; the caller then releases the reference it held.
     *
     * @param handle an adopted handle
     * @param hint   what to do with a handle the device made instead, for the message
     * @return the handle as a plain address
     * @throws IllegalArgumentException if the handle is not adopted
     */
    MemorySegment forget(MemorySegment handle, String hint) {
        boolean[] found = new boolean[1];
        live.computeIfPresent(handle.address(), (address, count) -> {
            found[0] = true;
            return count == 1 ? null : count - 1;
        });
        if (!found[0]) {
            throw new IllegalArgumentException(Hex.of(handle) + " is not a " + kind + " adopted by " + deviceName + " (" + hint + ")");
        }
        return MemorySegment.ofAddress(handle.address());
    }
}
