package dev.quiver.check;

import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.validate.ArrayValidator;
import dev.quiver.internal.validate.FullValidator;
import dev.quiver.internal.validate.Paths;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Checks one ArrowDeviceArray a producer filled, then releases it: the device fields, the array tree
 * against its field (structure, and for host memory the buffer contents), movability, and the release
 * callbacks. Stateless.
 */
final class DeviceArrayCheck {
    private static final long SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();
    private static final int FIRST_UNASSIGNED = 5;
    private static final int LAST_UNASSIGNED = 6;

    private DeviceArrayCheck() {}

    /**
     * @param deviceArray the producer's struct, readable; left released
     * @param field       the field its schema describes, or null if the consumer has no schema
     * @param path        the path of the struct ({@code ""} at the root, {@code arrays[3]} in a stream)
     * @param collector   where violations go
     * @param devices     backends to ask about events
     * @return the array's device type
     */
    static DeviceType check(MemorySegment deviceArray, Field field, String path, Collector collector, Devices devices) {
        MemorySegment struct = Pointers.bytes(deviceArray, SIZE);
        DeviceType type = deviceType(struct.get(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE), Paths.join(path, "device_type"), collector);
        long deviceId = struct.get(JAVA_LONG, ArrowDeviceArrayLayout.DEVICE_ID);
        deviceId(type, deviceId, Paths.join(path, "device_id"), collector);
        for (int i = 0; i < 3; i++) {
            long reserved = struct.get(JAVA_LONG, ArrowDeviceArrayLayout.RESERVED + 8L * i);
            if (reserved != 0) {
                collector.report(Rule.DEVICE_RESERVED, Paths.index(path, "reserved", i), "is 0x" + Long.toHexString(reserved)
                        + ": producers must zero the reserved bytes");
            }
        }
        MemorySegment syncEvent = struct.get(ADDRESS, ArrowDeviceArrayLayout.SYNC_EVENT);
        SyncEventCheck.check(type, deviceId, syncEvent, Paths.join(path, "sync_event"), collector, devices);

        String arrayPath = Paths.join(path, "array");
        MemorySegment array = struct.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize());
        int before = collector.violationCount();
        ArrayValidator.validate(array, field, arrayPath, collector);
        boolean structurallyValid = collector.violationCount() == before;
        if (field != null && structurallyValid) {
            contents(array, field, type, syncEvent, arrayPath, collector);
        }
        SelfPointers.check(struct, ArrowDeviceArrayLayout.ARRAY, StructKind.ARRAY.pointers, arrayPath, collector);
        SelfPointers.check(struct, 0, List.of(new StructKind.Member("sync_event", ArrowDeviceArrayLayout.SYNC_EVENT)), path, collector);
        SelfPointers.check(StructKind.ARRAY, StructTree.descendants(StructKind.ARRAY, array, arrayPath, collector), collector);
        collector.checked("ArrowDeviceArray" + (path.isEmpty() ? "" : " " + path) + ": " + type + ":" + deviceId
                + ", length " + array.get(JAVA_LONG, ArrowArrayLayout.LENGTH) + (field == null ? "" : ", format \"" + field.type().format() + "\""));
        ReleaseCheck.release(StructKind.ARRAY, array, arrayPath, collector);
        return type;
    }

    /**
     * Checks a {@code device_type} value.
     *
     * @return the device type, known or not
     */
    static DeviceType deviceType(int code, String path, Collector collector) {
        DeviceType type = DeviceType.of(code);
        if (code >= FIRST_UNASSIGNED && code <= LAST_UNASSIGNED) {
            collector.report(Rule.DEVICE_TYPE_UNASSIGNED, path, "is " + code + ", which Arrow and DLPack leave unassigned");
        } else if (!type.isKnown()) {
            collector.report(Rule.DEVICE_TYPE_UNKNOWN, path, "is " + code + ", not an ARROW_DEVICE_* code"
                    + type.dlpackName().map(n -> " (DLPack's " + n + ", which Arrow has not adopted)").orElse(""));
        }
        return type;
    }

    private static void deviceId(DeviceType type, long id, String path, Collector collector) {
        if (type.equals(DeviceType.CPU) && id != -1) {
            collector.report(Rule.DEVICE_ID_CPU, path, "is " + id + "; the spec recommends -1 for a CPU array, which has no device ids");
        } else if (id < -1) {
            collector.report(Rule.DEVICE_ID_RANGE, path, "is " + id + ", below -1");
        }
    }

    /** Reads the buffers of host arrays; other devices' buffers are not the host's to read. */
    private static void contents(MemorySegment array, Field field, DeviceType type, MemorySegment syncEvent, String path, Collector collector) {
        if (!type.isHostAccessible()) {
            collector.note(path + ": buffer contents not checked: " + type + " memory is not host-readable");
            return;
        }
        if (!syncEvent.equals(MemorySegment.NULL)) {
            collector.note(path + ": buffer contents not checked: the data is guarded by a sync event");
            return;
        }
        try {
            FullValidator.validate(array, field, pointer -> collector.readableBytes(pointer, Long.MAX_VALUE), InvalidArrowException::new);
        } catch (InvalidArrowException e) {
            String message = e.getMessage().substring(e.fieldPath().length() + 2);
            collector.report(Rule.ARRAY_DATA, e.fieldPath().isEmpty() ? path : Paths.join(path, e.fieldPath()), message
                    + (message.contains("the buffer holds") ? " readable bytes" : ""));
        } catch (RuntimeException e) {
            collector.report(Rule.ARRAY_DATA, path, "reading the buffers failed: " + e);
        }
    }
}
