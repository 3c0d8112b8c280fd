package dev.quiver.check;

import dev.quiver.plugin.Backends;
import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Checks {@code sync_event}, which the spec defines as a <em>pointer to</em> the event
 * ({@code cudaEvent_t*}, {@code cl_event*}, ...). The classic bug stores the event handle itself. A
 * handle is opaque, so no test is exact; these are the heuristics, strongest first:
 * <ol>
 *   <li><b>Readable memory.</b> A pointer to an event points to host memory the process can read (the
 *       producer allocated it). Many handles are not host addresses at all (Vulkan's non-dispatchable
 *       handles and OpenCL ICD handles are often small integers or driver-side ids; a handle may also be
 *       an index into a table). If {@code sync_event} is not in a readable mapping, it cannot be a pointer
 *       the consumer may dereference: {@link Rule#EVENT_NOT_A_POINTER}.</li>
 *   <li><b>Ask the backend.</b> Handles that happen to be heap addresses (a CUDA {@code CUevent} is a
 *       pointer to a driver struct) pass step 1. When a usable backend serves the device, it is asked
 *       whether the value behind {@code sync_event} is an event ({@link dev.quiver.spi.EventWaits#isEventComplete},
 *       which never blocks); if not, whether {@code sync_event} itself is one. "Not the pointee, but the
 *       pointer" is {@link Rule#EVENT_HANDLE_STORED}. Passing a wrong value to a vendor's query function
 *       is itself a risk a checker accepts; the correct reading is always tried first.</li>
 *   <li><b>A handle behind it.</b> For device types whose event is a handle (CUDA, ROCm, OpenCL, Vulkan,
 *       Metal, oneAPI), the pointed-to value is a handle, and a NULL handle is no event:
 *       {@link Rule#EVENT_NULL_HANDLE}. Not applied to EXT_DEV, whose events the producer defines.</li>
 * </ol>
 * Where no backend can be asked, the report says so in a note. Stateless.
 */
final class SyncEventCheck {
    private SyncEventCheck() {}

    /**
     * @param type      the array's device type
     * @param deviceId  its device id
     * @param syncEvent the {@code sync_event} value
     * @param path      the path of {@code sync_event}
     * @param collector where violations and notes go
     * @param devices   backends to ask
     */
    static void check(DeviceType type, long deviceId, MemorySegment syncEvent, String path, Collector collector, Devices devices) {
        if (syncEvent.equals(MemorySegment.NULL)) {
            return;
        }
        if (type.isKnown() && type.eventType().isEmpty()) {
            collector.report(Rule.EVENT_NOT_ALLOWED, path, "is 0x" + Long.toHexString(syncEvent.address()) + " but " + type
                    + " arrays have no events (must be NULL)");
            return;
        }
        String expected = type.eventType().map(t -> t + ", a pointer to the event").orElse("a pointer to the event");
        if (collector.readableBytes(syncEvent, ADDRESS.byteSize()) < ADDRESS.byteSize()) {
            collector.report(Rule.EVENT_NOT_A_POINTER, path, "is 0x" + Long.toHexString(syncEvent.address())
                    + ", which is not readable host memory: it must be " + expected + ", "
                    + "and this looks like the event handle itself");
            return;
        }
        MemorySegment handle = Pointers.pointers(syncEvent, 1).get(ADDRESS, 0);
        Optional<BackendDevice> backend = backend(type, deviceId, devices);
        if (backend.isPresent()) {
            BackendDevice device = backend.get();
            if (!handle.equals(MemorySegment.NULL) && recognises(device, () -> device.capability(EventWaits.class).orElseThrow().eventFromSyncEvent(syncEvent))) {
                return;
            }
            if (recognises(device, () -> syncEvent)) {
                collector.report(Rule.EVENT_HANDLE_STORED, path, "is 0x" + Long.toHexString(syncEvent.address())
                        + ", which the " + type + " backend recognises as an event handle itself; it must be " + expected);
                return;
            }
        }
        boolean handleType = type.isKnown() && !type.equals(DeviceType.EXT_DEV);
        if (handleType && handle.equals(MemorySegment.NULL)) {
            collector.report(Rule.EVENT_NULL_HANDLE, path, "points to a NULL " + type.eventType().orElse("event").replace("*", "")
                    + ": there is no event to wait on (use sync_event = NULL when none is needed)");
            return;
        }
        collector.note(path + ": points to readable memory holding 0x" + Long.toHexString(handle.address()) + "; "
                + (backend.isPresent() ? "the " + type + " backend recognises neither it nor sync_event as an event"
                : "no usable " + type + " backend with events here to confirm it is an event"));
    }

    private static Optional<BackendDevice> backend(DeviceType type, long deviceId, Devices devices) {
        Optional<Device> device = devices.find(type, deviceId);
        if (device.isEmpty()) {
            device = devices.all().stream().filter(d -> d.type().equals(type)).findFirst();
        }
        return device.map(Backends::of).filter(b -> b.capability(DeviceEvents.class).isPresent());
    }

    private interface HandleSource {
        MemorySegment handle();
    }

    private static boolean recognises(BackendDevice device, HandleSource source) {
        try {
            device.capability(EventWaits.class).orElseThrow().isEventComplete(source.handle());
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }
}
