package dev.quiver.tck;

import dev.quiver.spi.DeviceCapability;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.spi.NativeAdoption;
import dev.quiver.Device;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.SyncEvent;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Conformance checks of a device's native handles and of adoption, run by {@link DeviceProviderConformance} on
 * every device through the public API, as applications adopt: {@link Device#nativeHandles},
 * {@link Device#adoptStream} and {@link Device#adoptEvent}, whose returned stream or event forgets the native
 * object on close (destroying it when adopted as owned). A stream or event the provider's device made itself
 * is the one native object every backend can be handed, so each check makes one with the provider's device (as
 * the vendor API would), adopts it, works through the adopted stream or event, closes it, and shows the
 * original still works. Every object a check makes is released before it returns.
 *
 * <p>The public checks serve a backend's own tests of objects made outside Quiver (by its vendor API, or a
 * test double of it): they run every operation of the SPI that takes a stream, or an event, through one
 * adopted handle ({@link NativeAdoption#adoptStream}, {@link NativeAdoption#forgetStream},
 * {@link DeviceEvents#adoptEvent}, {@link DeviceEvents#forgetEvent}). Stateless; any thread; the caller
 * keeps owning the handles it passes.
 */
public final class AdoptionChecks {
    private AdoptionChecks() {}

    /** The handles are never null, keyed by non-blank names, and the same (in the same order) on every call. */
    static void nativeHandlesAreStable(Device device) {
        Map<String, MemorySegment> first = device.nativeHandles();
        assertNotNull(first, device + ": nativeHandles() is never null");
        for (Map.Entry<String, MemorySegment> handle : first.entrySet()) {
            assertFalse(handle.getKey().isBlank(), device + ": a handle without a name");
            assertNotNull(handle.getValue(), device + ": handle " + handle.getKey() + " is null");
        }
        Map<String, MemorySegment> second = device.nativeHandles();
        assertEquals(first, second, device + ": the handles are the same on every call");
        assertEquals(List.copyOf(first.keySet()), List.copyOf(second.keySet()), device + ": the handles come in a stable order");
    }

    /**
     * A stream made by the provider's device and adopted as borrowed carries a copy round trip; closing the
     * adopted stream leaves the original usable; adopting it as owned and closing releases it.
     *
     * @param device  the device, as the API serves it
     * @param backend the same device as the provider returned it, which makes the native stream
     */
    static void adoptedStreamsCarryCopies(Device device, BackendDevice backend) {
        MemorySegment stream = backend.createStream();
        boolean destroyed = false;
        try {
            try (DeviceStream adopted = device.adoptStream(stream, false)) {
                roundTrip(device + " on an adopted stream", device, adopted, (byte) 21);
            }
            roundTrip(device + " on the stream after forgetStream(stream, false)", backend, stream, (byte) 22);
            device.adoptStream(stream, true).close();
            destroyed = true;
        } finally {
            if (!destroyed) {
                backend.destroyStream(stream);
            }
        }
    }

    /**
     * Where the device has events: an event made by the provider's device and adopted as borrowed is recorded
     * (once: not every vendor API records an event twice), waited for on the host and by a stream, and
     * queried; closing the adopted event leaves the original usable for waits and queries; adopting it as
     * owned and closing releases it. Without events, adoption throws {@link UnsupportedOperationException}.
     *
     * @param device  the device, as the API serves it
     * @param backend the same device as the provider returned it, which makes the native event and streams
     */
    static void adoptedEventsFollowTheContract(Device device, BackendDevice backend) {
        DeviceEvents events = backend.capability(DeviceEvents.class).orElse(null);
        if (events == null) {
            assertThrows(UnsupportedOperationException.class, () -> device.adoptEvent(MemorySegment.ofAddress(8), false),
                    device + " has no events, so it adopts none");
            return;
        }
        MemorySegment stream = backend.createStream();
        MemorySegment other = backend.createStream();
        MemorySegment event = events.createEvent();
        boolean destroyed = false;
        try {
            try (SyncEvent adopted = device.adoptEvent(event, false); DeviceStream waiting = device.adoptStream(other, false)) {
                String what = device + " with an adopted event";
                // The API records only the events it makes (DeviceStream.recordEvent): the adopted one is
                // recorded as its maker would record it, through the provider's device.
                events.recordEvent(adopted.handle(), stream);
                adopted.waitOnHost();
                assertTrue(adopted.isComplete(), what + ": complete after the host wait");
                waiting.waitFor(adopted);
                roundTrip(what + ": a stream ordered after it", device, waiting, (byte) 23);
            }
            waitFor(device + " with the event after forgetEvent(event, false)", backend, event, other);
            device.adoptEvent(event, true).close();
            destroyed = true;
        } finally {
            if (!destroyed) {
                events.destroyEvent(event);
            }
            backend.destroyStream(other);
            backend.destroyStream(stream);
        }
    }

    private static void recordAndWait(String what, BackendDevice backend, MemorySegment event, MemorySegment stream, MemorySegment other) {
        required(backend, DeviceEvents.class).recordEvent(event, stream);
        waitFor(what, backend, event, other);
    }

    /** Host wait, query and stream wait on an event recorded before (recorded once: some APIs allow no more). */
    private static void waitFor(String what, BackendDevice backend, MemorySegment event, MemorySegment other) {
        EventWaits waits = required(backend, EventWaits.class);
        waits.waitEvent(event);
        assertTrue(waits.isEventComplete(event), what + ": complete after the host wait");
        waits.streamWaitEvent(other, event);
        roundTrip(what + ": a stream ordered after it", backend, other, (byte) 23);
    }

    /**
     * Adopts a native stream or event, uses the adopted handle, forgets it without destroying, then adopts
     * and forgets it again with destroying; after each forget checks the number of live native objects of its
     * kind, as the vendor library (or a test double of it) counts them.
     *
     * @param what         the native object, for messages (for example {@code "CUstream 0x1234"})
     * @param nativeObject the object, made outside Quiver and live
     * @param liveCount    reads the number of live objects of its kind
     * @param adopt        {@link dev.quiver.spi.NativeAdoption#adoptStream} or {@link dev.quiver.spi.DeviceEvents#adoptEvent} of the device
     * @param use          works with the adopted handle
     * @param forget       {@link dev.quiver.spi.NativeAdoption#forgetStream} or {@link dev.quiver.spi.DeviceEvents#forgetEvent} of the device
     */
    public static void forgettingDestroysOnlyWhenAsked(String what, MemorySegment nativeObject, LongSupplier liveCount,
                                                       UnaryOperator<MemorySegment> adopt, Consumer<MemorySegment> use,
                                                       BiConsumer<MemorySegment, Boolean> forget) {
        long live = liveCount.getAsLong();
        MemorySegment adopted = adopt.apply(nativeObject);
        use.accept(adopted);
        forget.accept(adopted, false);
        assertEquals(live, liveCount.getAsLong(), what + ": forgetting without destroy leaves it alive");
        forget.accept(adopt.apply(nativeObject), true);
        assertEquals(live - 1, liveCount.getAsLong(), what + ": forgetting with destroy released it");
    }

    /**
     * {@link #forgettingDestroysOnlyWhenAsked} for a stream made outside Quiver, used in
     * {@link #everyOperationOnStream}.
     *
     * @param backend     a device
     * @param stream      the native stream, live, of {@code backend}
     * @param liveStreams reads the number of live native streams
     */
    public static void nativeStreamServesEveryOperation(BackendDevice backend, MemorySegment stream, LongSupplier liveStreams) {
        NativeAdoption adoption = required(backend, NativeAdoption.class);
        forgettingDestroysOnlyWhenAsked(backend + ": stream 0x" + Long.toHexString(stream.address()), stream, liveStreams,
                adoption::adoptStream, adopted -> everyOperationOnStream(backend, adopted), adoption::forgetStream);
    }

    /**
     * {@link #forgettingDestroysOnlyWhenAsked} for an event made outside Quiver, used in
     * {@link #everyOperationWithEvent}.
     *
     * @param backend    a device with events
     * @param event      the native event, live, of {@code backend}
     * @param liveEvents reads the number of live native events
     */
    public static void nativeEventServesEveryOperation(BackendDevice backend, MemorySegment event, LongSupplier liveEvents) {
        DeviceEvents events = required(backend, DeviceEvents.class);
        forgettingDestroysOnlyWhenAsked(backend + ": event 0x" + Long.toHexString(event.address()), event, liveEvents,
                events::adoptEvent, adopted -> everyOperationWithEvent(backend, adopted), events::forgetEvent);
    }

    /**
     * Runs every operation that takes a stream on {@code stream}: copies from and to the host and within the
     * device, synchronising it, and, where the device has events, recording an event on it and making it
     * wait for one; checks the bytes.
     *
     * @param backend a device
     * @param stream  a stream handle {@link dev.quiver.spi.NativeAdoption#adoptStream} returned
     */
    public static void everyOperationOnStream(BackendDevice backend, MemorySegment stream) {
        MemorySegment first = backend.allocate(64, 64);
        MemorySegment second = backend.allocate(64, 64);
        DeviceEvents events = backend.capability(DeviceEvents.class).orElse(null);
        MemorySegment event = events != null ? events.createEvent() : null;
        try (Arena arena = Arena.ofConfined()) {
            backend.copyFromHost(arena.allocate(64).fill((byte) 31), first, 0, stream);
            backend.copyWithinDevice(first, 0, second, 0, 64, stream);
            EventWaits waits = null;
            if (event != null) {
                events.recordEvent(event, stream);
                waits = required(backend, EventWaits.class);
                waits.waitEvent(event);
                waits.streamWaitEvent(stream, event);
            }
            MemorySegment back = arena.allocate(64);
            backend.copyToHost(second, 0, back, stream);
            backend.synchronizeStream(stream);
            if (event != null) {
                assertTrue(waits.isEventComplete(event), backend + ": the event recorded on the adopted stream completed");
            }
            assertEquals(31, back.get(JAVA_BYTE, 63), backend + ": bytes copied in, across and out on the adopted stream");
        } finally {
            if (event != null) {
                events.destroyEvent(event);
            }
            backend.free(second);
            backend.free(first);
        }
    }

    /**
     * Runs every operation that takes an event with {@code event}: recording it, querying it, a host wait
     * and a stream wait, ordered before a copy that is then checked.
     *
     * @param backend a device with events
     * @param event   an event handle {@link dev.quiver.spi.DeviceEvents#adoptEvent} returned
     */
    public static void everyOperationWithEvent(BackendDevice backend, MemorySegment event) {
        MemorySegment stream = backend.createStream();
        MemorySegment other = backend.createStream();
        try {
            recordAndWait(backend.toString() + " with an adopted event", backend, event, stream, other);
        } finally {
            backend.destroyStream(other);
            backend.destroyStream(stream);
        }
    }

    /**
     * {@return the capability a check needs of the device}
     * @param backend the device
     * @param kind    the capability's interface
     * @param <C>     the capability
     * @throws NoSuchElementException naming the device and the capability where the device does not offer it
     */
    private static <C extends DeviceCapability> C required(BackendDevice backend, Class<C> kind) {
        return backend.capability(kind).orElseThrow(() -> new NoSuchElementException(backend + " offers no " + kind.getSimpleName()));
    }

    private static void roundTrip(String what, BackendDevice backend, MemorySegment stream, byte value) {
        MemorySegment buffer = backend.allocate(100, 64);
        try (Arena arena = Arena.ofConfined()) {
            backend.copyFromHost(arena.allocate(100).fill(value), buffer, 0, stream);
            MemorySegment back = arena.allocate(100);
            backend.copyToHost(buffer, 0, back, stream);
            backend.synchronizeStream(stream);
            assertBothEnds(what, value, back);
        } finally {
            backend.free(buffer);
        }
    }

    /** {@link #roundTrip(String, BackendDevice, MemorySegment, byte)} through the public API. */
    private static void roundTrip(String what, Device device, DeviceStream stream, byte value) {
        try (Arena arena = Arena.ofConfined(); DeviceBuffer buffer = device.allocate(100)) {
            buffer.copyFromHost(arena.allocate(100).fill(value), 0, stream);
            MemorySegment back = arena.allocate(100);
            buffer.copyToHost(0, back, stream);
            stream.synchronize();
            assertBothEnds(what, value, back);
        }
    }

    private static void assertBothEnds(String what, byte value, MemorySegment back) {
        assertEquals(value, back.get(JAVA_BYTE, 0), what + ": first byte copied back");
        assertEquals(value, back.get(JAVA_BYTE, 99), what + ": last byte copied back");
    }
}
