package dev.quiver.stream;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

/** The checks every array a stream hands out or takes in must pass: the stream's device type and schema. */
final class ArrayChecks {
    private ArrayChecks() {}

    /**
     * @param array      an array about to be handed to the other side
     * @param schema     the stream's schema
     * @param deviceType the stream's device type
     * @param index      the array's position in the stream, for the message
     * @throws StreamException with EINVAL naming the mismatch
     */
    static void check(DeviceArray array, Field schema, DeviceType deviceType, long index) {
        if (!array.deviceType().equals(deviceType)) {
            throw new StreamException(Errno.EINVAL, "array " + index + " is on " + array.deviceType()
                    + " but the stream's device_type is " + deviceType + " (every array must match the stream)");
        }
        if (!sameTypes(array.field(), schema)) {
            throw new StreamException(Errno.EINVAL, "array " + index + " has type " + typeOf(array.field())
                    + " but the stream's schema is " + typeOf(schema));
        }
    }

    /**
     * Checks an incoming ArrowDeviceArray's {@code device_type} before it is imported.
     *
     * @param deviceArray a live ArrowDeviceArray the caller owns
     * @param expected    the stream's device type
     * @param owner       whose device type it is, for the message ("stream", "producer")
     * @throws InvalidArrowException naming {@code device_type}, after releasing the array
     */
    static void requireDeviceType(MemorySegment deviceArray, DeviceType expected, String owner) {
        int type = deviceArray.get(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE);
        if (type != expected.code()) {
            ReleaseCallbacks.releaseArrayStruct(deviceArray.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize()));
            throw new InvalidArrowException("device_type", "is " + DeviceType.of(type) + " (" + type + ") but the " + owner
                    + "'s device_type is " + expected + " (" + expected.code() + "); the array was released");
        }
    }

    /** @return true if both fields have the same type tree (names, nullability and metadata aside) */
    static boolean sameTypes(Field a, Field b) {
        if (a == b) {
            return true;
        }
        if (!a.type().equals(b.type()) || a.children().size() != b.children().size()) {
            return false;
        }
        for (int i = 0; i < a.children().size(); i++) {
            if (!sameTypes(a.children().get(i), b.children().get(i))) {
                return false;
            }
        }
        return true;
    }

    private static String typeOf(Field field) {
        StringBuilder out = new StringBuilder("\"").append(field.type().format()).append('"');
        if (!field.children().isEmpty()) {
            out.append('<');
            for (int i = 0; i < field.children().size(); i++) {
                out.append(i == 0 ? "" : ", ").append(typeOf(field.children().get(i)));
            }
            out.append('>');
        }
        return out.toString();
    }
}
