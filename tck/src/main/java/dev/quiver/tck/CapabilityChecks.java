package dev.quiver.tck;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceCapability;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.EventWaits;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcEventHandle;
import dev.quiver.spi.IpcEvents;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.IpcMemoryHandle;
import dev.quiver.spi.NativeAdoption;
import dev.quiver.spi.PinnedHostMemory;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
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

    /**
     * {@link DeviceEvents}, where offered: an event recorded after a copy completes once waited for on the host,
     * is then complete, orders another stream, and is what a {@code sync_event} pointing at it names; the same
     * for an event from {@code recordNewEvent}; an event made outside the API and adopted as borrowed is waited
     * for through the adopted handle and stays usable after {@code forgetEvent(event, false)}. The device answers
     * {@link EventWaits} with the same object. Each event is destroyed exactly once.
     *
     * @param device the device as the provider returned it
     */
    static void deviceEvents(BackendDevice device) {
        lookupIsStable(device, DeviceEvents.class);
        lookupIsStable(device, EventWaits.class);
        DeviceEvents events = device.capability(DeviceEvents.class).orElse(null);
        if (events == null) {
            return;
        }
        assertSame(events, device.capability(EventWaits.class).orElse(null),
                device.name() + ": a device with DeviceEvents answers EventWaits with the same object");
        MemorySegment stream = device.createStream();
        MemorySegment other = device.createStream();
        MemorySegment onDevice = device.allocate(4096, 64);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(4096);
            source.fill((byte) 0x3C);
            device.copyFromHost(source, onDevice, 0, stream);
            MemorySegment event = events.createEvent();
            try {
                events.recordEvent(event, stream);
                waitAndOrder(device, events, event, other, "createEvent and recordEvent after a copy");
                MemorySegment syncEvent = arena.allocate(ADDRESS);
                syncEvent.set(ADDRESS, 0, event);
                assertEquals(event.address(), events.eventFromSyncEvent(syncEvent).address(),
                        device.name() + ": sync_event is a pointer to the event");
            } finally {
                events.destroyEvent(event);
            }
            MemorySegment recorded = events.recordNewEvent(stream);
            try {
                waitAndOrder(device, events, recorded, other, "recordNewEvent");
            } finally {
                events.destroyEvent(recorded);
            }
            MemorySegment made = events.recordNewEvent(stream);
            try {
                MemorySegment adopted = events.adoptEvent(made);
                assertNotNull(adopted, device.name() + ": adoptEvent returned null");
                waitAndOrder(device, events, adopted, other, "an adopted event");
                events.forgetEvent(adopted, false);
                waitAndOrder(device, events, made, other, "an event after forgetEvent(event, false)");
            } finally {
                events.destroyEvent(made);
            }
        } finally {
            device.free(onDevice);
            device.destroyStream(other);
            device.destroyStream(stream);
        }
    }

    private static void waitAndOrder(BackendDevice device, EventWaits events, MemorySegment event, MemorySegment other, String what) {
        events.waitEvent(event);
        assertTrue(events.isEventComplete(event), device.name() + ": " + what + ": complete after the host wait");
        events.streamWaitEvent(other, event);
        device.synchronizeStream(other);
    }

    /**
     * {@link IpcMemory}, where offered: the mechanism is a real one; the export of a pointer at an offset names
     * an allocation at least as large, the offset of that address in it, and this mechanism; opening the handle
     * in the exporting process either maps the same bytes or is refused with a {@link DeviceException} (drivers
     * such as CUDA's refuse a process its own handles); what was opened is closed once, before the memory is
     * freed.
     *
     * @param device the device as the provider returned it
     */
    static void ipcMemory(BackendDevice device) {
        lookupIsStable(device, IpcMemory.class);
        IpcMemory ipc = device.capability(IpcMemory.class).orElse(null);
        if (ipc == null) {
            return;
        }
        IpcMechanism mechanism = ipc.ipcMechanism();
        assertNotEquals(IpcMechanism.NONE, mechanism, device.name() + ": a device with IpcMemory names its mechanism");
        int size = 4096;
        int offset = 1000;
        MemorySegment pointer = device.allocate(size, 256);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pattern = arena.allocate(size);
            for (int i = 0; i < size; i++) {
                pattern.set(JAVA_BYTE, i, (byte) (i * 13 + 1));
            }
            device.copyFromHost(pattern, pointer, 0, device.defaultStream());
            device.synchronizeStream(device.defaultStream());
            IpcMemoryHandle handle = ipc.exportMemory(pointer, offset);
            assertEquals(mechanism, handle.mechanism(), device.name() + ": the handle is of the device's mechanism");
            assertEquals(offset, handle.offset(), device.name() + ": the handle names the offset of pointer + offset");
            assertTrue(handle.allocationSize() <= 0 || handle.allocationSize() >= size,
                    device.name() + ": the handle's allocation holds the exported bytes: " + handle);
            ImportedMemory opened;
            try {
                opened = ipc.openMemory(handle);
            } catch (DeviceException refused) {
                return;
            }
            try (opened) {
                MemorySegment back = arena.allocate(64);
                device.copyToHost(opened.pointer(), handle.offset(), back, device.defaultStream());
                device.synchronizeStream(device.defaultStream());
                assertArrayEquals(pattern.asSlice(offset, 64).toArray(JAVA_BYTE), back.toArray(JAVA_BYTE),
                        device.name() + ": memory opened from its handle maps the exported bytes");
            }
        } finally {
            device.free(pointer);
        }
    }

    /**
     * {@link IpcEvents}, where offered: the device also offers {@link DeviceEvents} and an {@link IpcMemory}
     * whose mechanism carries event handles; an event recorded for sharing is exported as a handle of that
     * mechanism and length, is waited for like any event, and is destroyed once with {@code destroyEvent}; an
     * event made with {@code createInterProcessEvent} is recorded and destroyed the same way.
     *
     * @param device the device as the provider returned it
     */
    static void ipcEvents(BackendDevice device) {
        lookupIsStable(device, IpcEvents.class);
        IpcEvents ipc = device.capability(IpcEvents.class).orElse(null);
        if (ipc == null) {
            return;
        }
        DeviceEvents events = device.capability(DeviceEvents.class).orElseThrow(() ->
                new AssertionError(device.name() + ": IpcEvents without DeviceEvents"));
        IpcMechanism mechanism = device.capability(IpcMemory.class).map(IpcMemory::ipcMechanism).orElseThrow(() ->
                new AssertionError(device.name() + ": IpcEvents without IpcMemory"));
        assertTrue(mechanism.eventHandleBytes() > 0, device.name() + ": " + mechanism + " carries no event handles");
        MemorySegment recorded = ipc.recordInterProcessEvent(device.defaultStream());
        try {
            IpcEventHandle handle = ipc.exportEvent(recorded);
            assertEquals(mechanism, handle.mechanism(), device.name() + ": the event handle is of the device's mechanism");
            assertEquals(mechanism.eventHandleBytes(), handle.handle().length, device.name() + ": the event handle's length");
            events.waitEvent(recorded);
            assertTrue(events.isEventComplete(recorded), device.name() + ": a shared event is complete after the host wait");
        } finally {
            events.destroyEvent(recorded);
        }
        MemorySegment made = ipc.createInterProcessEvent();
        try {
            events.recordEvent(made, device.defaultStream());
            events.waitEvent(made);
        } finally {
            events.destroyEvent(made);
        }
    }

    /**
     * {@link NativeAdoption}, where offered: the native handles are named, non-null and the same, in the same
     * order, on every call; a stream the device made, adopted, carries a copy round trip, and stays the caller's
     * after {@code forgetStream(stream, false)} (it still carries copies); adopted again and forgotten with
     * {@code destroy} true, it is released by the device, once.
     *
     * @param device the device as the provider returned it
     */
    static void nativeAdoption(BackendDevice device) {
        lookupIsStable(device, NativeAdoption.class);
        NativeAdoption adoption = device.capability(NativeAdoption.class).orElse(null);
        if (adoption == null) {
            return;
        }
        Map<String, MemorySegment> first = adoption.nativeHandles();
        assertNotNull(first, device.name() + ": nativeHandles() is never null");
        first.forEach((name, handle) -> {
            assertFalse(name.isBlank(), device.name() + ": a native handle without a name");
            assertNotNull(handle, device.name() + ": native handle " + name + " is null");
        });
        assertEquals(List.copyOf(first.entrySet()), List.copyOf(adoption.nativeHandles().entrySet()),
                device.name() + ": the native handles are the same, in the same order, on every call");
        MemorySegment stream = device.createStream();
        boolean released = false;
        try {
            MemorySegment adopted = adoption.adoptStream(stream);
            copyOn(device, adopted, "an adopted stream");
            adoption.forgetStream(adopted, false);
            copyOn(device, stream, "the stream after forgetStream(stream, false)");
            adoption.forgetStream(adoption.adoptStream(stream), true);
            released = true;
        } finally {
            if (!released) {
                device.destroyStream(stream);
            }
        }
    }

    private static void copyOn(BackendDevice device, MemorySegment stream, String what) {
        MemorySegment onDevice = device.allocate(64, 64);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment source = arena.allocate(64);
            source.fill((byte) 0x5D);
            MemorySegment back = arena.allocate(64);
            device.copyFromHost(source, onDevice, 0, stream);
            device.copyToHost(onDevice, 0, back, stream);
            device.synchronizeStream(stream);
            assertArrayEquals(source.toArray(JAVA_BYTE), back.toArray(JAVA_BYTE), device.name() + ": " + what + " carries a copy");
        } finally {
            device.free(onDevice);
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
