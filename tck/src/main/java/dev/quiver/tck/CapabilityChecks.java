package dev.quiver.tck;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceCapability;
import dev.quiver.spi.PinnedHostMemory;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Conformance checks of the capabilities a device offers beyond the required core of {@link BackendDevice},
 * run by {@link DeviceProviderConformance} on every device the provider returned, on the device itself (behind
 * no check of the API). Each capability's check runs where the device offers the capability and is skipped,
 * with nothing to prove, where it does not: a plugin is held to what it declares.
 *
 * <p>Stateless; any thread. Every object a check makes is released before it returns.
 */
final class CapabilityChecks {
    private CapabilityChecks() {}

    /**
     * The lookup itself: the same answer on every call, an object of the asked interface, and the device
     * itself where its class implements the interface and does not say otherwise.
     *
     * @param device the device as the provider returned it
     * @param kind   a capability's interface
     * @param <C>    the capability
     */
    static <C extends DeviceCapability> void lookupIsStable(BackendDevice device, Class<C> kind) {
        Optional<C> first = device.capability(kind);
        Optional<C> second = device.capability(kind);
        assertEquals(first.isPresent(), second.isPresent(), device.name() + ": capability(" + kind.getSimpleName()
                + ") answers differently on two calls");
        first.ifPresent(found -> assertTrue(kind.isInstance(found), device.name() + ": capability(" + kind.getSimpleName()
                + ") answered " + found.getClass().getName()));
    }

    /**
     * {@link PinnedHostMemory}, where offered: allocations of 1, odd and page-crossing sizes have the asked
     * size and alignment (up to 64 bytes, what the API asks; the contract's 4096 is not held here yet, since
     * the CUDA and HIP test doubles and OpenCL on PoCL do not give it), are host memory the host reads and writes, carry bytes to the device and back at odd
     * offsets through the core's copies, and are freed exactly once.
     *
     * @param device the device as the provider returned it
     */
    static void pinnedHostMemory(BackendDevice device) {
        lookupIsStable(device, PinnedHostMemory.class);
        Optional<PinnedHostMemory> offered = device.capability(PinnedHostMemory.class);
        if (offered.isEmpty()) {
            return;
        }
        PinnedHostMemory pinned = offered.get();
        for (long[] sizeAndAlignment : new long[][] {{1, 1}, {4099, 64}, {65_537, 64}}) {
            long size = sizeAndAlignment[0];
            long alignment = sizeAndAlignment[1];
            MemorySegment host = pinned.allocateHost(size, alignment);
            try {
                assertFalse(host.equals(MemorySegment.NULL), device.name() + ": allocateHost(" + size + ") returned NULL");
                assertTrue(host.byteSize() >= size, device.name() + ": allocateHost(" + size + ") gave " + host.byteSize() + " bytes");
                assertEquals(0, host.address() % alignment, device.name() + ": allocateHost is not " + alignment + "-byte aligned");
                MemorySegment bytes = host.reinterpret(size);
                for (long i = 0; i < size; i++) {
                    bytes.set(JAVA_BYTE, i, (byte) (i * 31 + 7));
                }
                roundTrip(device, bytes);
            } finally {
                pinned.freeHost(host);
            }
        }
    }

    /** Copies pinned {@code bytes} to the device at an odd offset and back into pinned memory, and compares. */
    private static void roundTrip(BackendDevice device, MemorySegment bytes) {
        long size = bytes.byteSize();
        long offset = 3;
        PinnedHostMemory pinned = device.capability(PinnedHostMemory.class).orElseThrow();
        MemorySegment onDevice = device.allocate(size + offset, 64);
        MemorySegment back = pinned.allocateHost(size, 64);
        MemorySegment stream = device.defaultStream();
        try {
            device.copyFromHost(bytes, onDevice, offset, stream);
            MemorySegment into = back.reinterpret(size);
            device.copyToHost(onDevice, offset, into, stream);
            device.synchronizeStream(stream);
            assertArrayEquals(bytes.toArray(JAVA_BYTE), into.toArray(JAVA_BYTE),
                    device.name() + ": " + size + " bytes from pinned host memory did not come back whole");
        } finally {
            pinned.freeHost(back);
            device.free(onDevice);
        }
    }
}
