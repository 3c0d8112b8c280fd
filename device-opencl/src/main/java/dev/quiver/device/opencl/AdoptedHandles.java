package dev.quiver.device.opencl;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The OpenCL objects of one kind (queues, events) that one device adopted: made outside Quiver, validated
 * and retained by the device, until forgotten. Thread-safe: a handle is adopted at most once, even by
 * concurrent callers.
 */
final class AdoptedHandles {
    private final String kind;
    private final String deviceName;
    private final Set<Long> live = ConcurrentHashMap.newKeySet();

    /**
     * @param kind       what the handles are, for messages ({@code "cl_command_queue"}, {@code "cl_event"})
     * @param deviceName the device's name, for messages
     */
    AdoptedHandles(String kind, String deviceName) {
        this.kind = kind;
        this.deviceName = deviceName;
    }

    /**
     * Adopts a handle once: reserves it, then validates and retains it; if that throws, the handle is not
     * adopted.
     *
     * @param handle            the handle
     * @param known             whether the device already knows the handle otherwise (made it, owns it)
     * @param validateAndRetain checks the handle belongs to the device and retains it, or throws
     * @return the handle as a plain address
     * @throws IllegalArgumentException if the handle is NULL, known or adopted already
     */
    MemorySegment adopt(MemorySegment handle, boolean known, Consumer<MemorySegment> validateAndRetain) {
        if (handle.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("cannot adopt a NULL " + kind);
        }
        MemorySegment plain = MemorySegment.ofAddress(handle.address());
        if (known || !live.add(plain.address())) {
            throw new IllegalArgumentException(kind + " " + Hex.of(handle) + " is already known to " + deviceName);
        }
        try {
            validateAndRetain.accept(plain);
        } catch (RuntimeException e) {
            live.remove(plain.address());
            throw e;
        }
        return plain;
    }

    /**
     * @param handle a handle
     * @return whether it is adopted
     */
    boolean contains(MemorySegment handle) {
        return live.contains(handle.address());
    }

    /**
     * Stops tracking an adopted handle; the caller then releases the references.
     *
     * @param handle an adopted handle
     * @param hint   what to do with a handle the device made instead, for the message
     * @return the handle as a plain address
     * @throws IllegalArgumentException if the handle is not adopted
     */
    MemorySegment forget(MemorySegment handle, String hint) {
        if (!live.remove(handle.address())) {
            throw new IllegalArgumentException(Hex.of(handle) + " is not a " + kind + " adopted by " + deviceName + " (" + hint + ")");
        }
        return MemorySegment.ofAddress(handle.address());
    }
}
