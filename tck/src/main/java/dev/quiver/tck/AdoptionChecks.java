package dev.quiver.tck;

import dev.quiver.spi.BackendDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Map;
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
 * Conformance checks of a device's native handles and of adoption ({@link BackendDevice#nativeHandles},
 * {@link BackendDevice#adoptStream}, {@link BackendDevice#forgetStream}, {@link BackendDevice#adoptEvent},
 * {@link BackendDevice#forgetEvent}), run by {@link DeviceProviderConformance} on every device. A stream or
 * event the backend made itself is the one native object every backend can be handed, so each check adopts
 * such an object, works through the adopted handle, forgets it, and shows the original still works. Every
 * object a check makes is released before it returns.
 *
 * <p>The public checks serve a backend's own tests of objects made outside Quiver (by its vendor API, or a
 * test double of it): they run every operation of the SPI that takes a stream, or an event, through one
 * adopted handle. Stateless; any thread; the caller keeps owning the handles it passes.
 */
public final class AdoptionChecks {
    private AdoptionChecks() {}

    /** The handles are never null, keyed by non-blank names, and the same (in the same order) on every call. */
    static void nativeHandlesAreStable(String device, BackendDevice backend) {
        Map<String, MemorySegment> first = backend.nativeHandles();
        assertNotNull(first, device + ": nativeHandles() is never null");
        for (Map.Entry<String, MemorySegment> handle : first.entrySet()) {
            assertFalse(handle.getKey().isBlank(), device + ": a handle without a name");
            assertNotNull(handle.getValue(), device + ": handle " + handle.getKey() + " is null");
        }
        Map<String, MemorySegment> second = backend.nativeHandles();
        assertEquals(first, second, device + ": the handles are the same on every call");
        assertEquals(List.copyOf(first.keySet()), List.copyOf(second.keySet()), device + ": the handles come in a stable order");
    }

    /**
     * A stream made by {@link BackendDevice#createStream} and adopted carries a copy round trip; forgetting
     * it without destroying leaves the original usable; adopting and forgetting with destroy releases it.
     */
    static void adoptedStreamsCarryCopies(String device, BackendDevice backend) {
        MemorySegment stream = backend.createStream();
        boolean destroyed = false;
        try {
            MemorySegment adopted = backend.adoptStream(stream);
            roundTrip(device + " on an adopted stream", backend, adopted, (byte) 21);
            backend.forgetStream(adopted, false);
            roundTrip(device + " on the stream after forgetStream(stream, false)", backend, stream, (byte) 22);
            backend.forgetStream(backend.adoptStream(stream), true);
            destroyed = true;
        } finally {
            if (!destroyed) {
                backend.destroyStream(stream);
            }
        }
    }

    /**
     * Where the device has events: an event made by {@link BackendDevice#createEvent} and adopted is recorded
     * (once: not every vendor API records an event twice), waited for on the host and by a stream, and
     * queried; forgetting it without destroying leaves the original usable for waits and queries; adopting
     * and forgetting with destroy releases it. Without events, adoption throws
     * {@link UnsupportedOperationException}.
     */
    static void adoptedEventsFollowTheContract(String device, BackendDevice backend) {
        if (!backend.supportsEvents()) {
            assertThrows(UnsupportedOperationException.class, () -> backend.adoptEvent(MemorySegment.ofAddress(8)),
                    device + " has no events, so it adopts none");
            return;
        }
        MemorySegment stream = backend.createStream();
        MemorySegment other = backend.createStream();
        MemorySegment event = backend.createEvent();
        boolean destroyed = false;
        try {
            MemorySegment adopted = backend.adoptEvent(event);
            recordAndWait(device + " with an adopted event", backend, adopted, stream, other);
            backend.forgetEvent(adopted, false);
            waitFor(device + " with the event after forgetEvent(event, false)", backend, event, other);
            backend.forgetEvent(backend.adoptEvent(event), true);
            destroyed = true;
        } finally {
            if (!destroyed) {
                backend.destroyEvent(event);
            }
            backend.destroyStream(other);
            backend.destroyStream(stream);
        }
    }

    private static void recordAndWait(String what, BackendDevice backend, MemorySegment event, MemorySegment stream, MemorySegment other) {
        backend.recordEvent(event, stream);
        waitFor(what, backend, event, other);
    }

    /** Host wait, query and stream wait on an event recorded before (recorded once: some APIs allow no more). */
    private static void waitFor(String what, BackendDevice backend, MemorySegment event, MemorySegment other) {
        backend.waitEvent(event);
        assertTrue(backend.isEventComplete(event), what + ": complete after the host wait");
        backend.streamWaitEvent(other, event);
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
     * @param adopt        {@link BackendDevice#adoptStream} or {@link BackendDevice#adoptEvent} of the device
     * @param use          works with the adopted handle
     * @param forget       {@link BackendDevice#forgetStream} or {@link BackendDevice#forgetEvent} of the device
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
        forgettingDestroysOnlyWhenAsked(backend + ": stream 0x" + Long.toHexString(stream.address()), stream, liveStreams,
                backend::adoptStream, adopted -> everyOperationOnStream(backend, adopted), backend::forgetStream);
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
        forgettingDestroysOnlyWhenAsked(backend + ": event 0x" + Long.toHexString(event.address()), event, liveEvents,
                backend::adoptEvent, adopted -> everyOperationWithEvent(backend, adopted), backend::forgetEvent);
    }

    /**
     * Runs every operation that takes a stream on {@code stream}: copies from and to the host and within the
     * device, synchronising it, and, where the device has events, recording an event on it and making it
     * wait for one; checks the bytes.
     *
     * @param backend a device
     * @param stream  a stream handle {@link BackendDevice#adoptStream} returned
     */
    public static void everyOperationOnStream(BackendDevice backend, MemorySegment stream) {
        MemorySegment first = backend.allocate(64, 64);
        MemorySegment second = backend.allocate(64, 64);
        MemorySegment event = backend.supportsEvents() ? backend.createEvent() : null;
        try (Arena arena = Arena.ofConfined()) {
            backend.copyFromHost(arena.allocate(64).fill((byte) 31), first, 0, stream);
            backend.copyWithinDevice(first, 0, second, 0, 64, stream);
            if (event != null) {
                backend.recordEvent(event, stream);
                backend.waitEvent(event);
                backend.streamWaitEvent(stream, event);
            }
            MemorySegment back = arena.allocate(64);
            backend.copyToHost(second, 0, back, stream);
            backend.synchronizeStream(stream);
            if (event != null) {
                assertTrue(backend.isEventComplete(event), backend + ": the event recorded on the adopted stream completed");
            }
            assertEquals(31, back.get(JAVA_BYTE, 63), backend + ": bytes copied in, across and out on the adopted stream");
        } finally {
            if (event != null) {
                backend.destroyEvent(event);
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
     * @param event   an event handle {@link BackendDevice#adoptEvent} returned
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

    private static void roundTrip(String what, BackendDevice backend, MemorySegment stream, byte value) {
        MemorySegment buffer = backend.allocate(100, 64);
        try (Arena arena = Arena.ofConfined()) {
            backend.copyFromHost(arena.allocate(100).fill(value), buffer, 0, stream);
            MemorySegment back = arena.allocate(100);
            backend.copyToHost(buffer, 0, back, stream);
            backend.synchronizeStream(stream);
            assertEquals(value, back.get(JAVA_BYTE, 0), what + ": first byte copied back");
            assertEquals(value, back.get(JAVA_BYTE, 99), what + ": last byte copied back");
        } finally {
            backend.free(buffer);
        }
    }
}
