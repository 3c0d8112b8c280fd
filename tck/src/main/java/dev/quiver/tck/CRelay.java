package dev.quiver.tck;

import dev.quiver.testkit.CLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C side of the round trip ({@code tck_relay.c}): checks producer conventions, moves the array into a
 * struct whose release C counts. Compiled on first use; thread-safe.
 */
final class CRelay {
    private static final CLibrary LIBRARY = CLibrary.fromResources(CRelay.class, List.of("tck_relay.c"), List.of());
    private static final MethodHandle RELAY = LIBRARY.function("tck_relay",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG));
    private static final MethodHandle MOVE_SCHEMA = LIBRARY.function("tck_move_schema",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle RELAYED = LIBRARY.function("tck_relayed", FunctionDescriptor.of(JAVA_LONG));
    private static final MethodHandle RELEASED = LIBRARY.function("tck_released", FunctionDescriptor.of(JAVA_LONG));

    private static final String[] RULES = {"ok", "release is NULL", "device_type differs from the device's",
        "device_id differs from the device's", "reserved bytes are not zero", "negative length or offset", "out of memory"};

    private CRelay() {}

    /** Moves {@code in} into {@code out} through C, or fails naming the broken rule. */
    static void relay(MemorySegment in, MemorySegment out, int deviceType, long deviceId) {
        int rc = call(() -> (int) RELAY.invokeExact(in, out, deviceType, deviceId));
        if (rc != 0) {
            throw new AssertionError("C consumer rejected the exported ArrowDeviceArray: " + RULES[rc]);
        }
    }

    static void moveSchema(MemorySegment in, MemorySegment out) {
        int rc = call(() -> (int) MOVE_SCHEMA.invokeExact(in, out));
        if (rc != 0) {
            throw new AssertionError("C consumer rejected the exported ArrowSchema (released or NULL format)");
        }
    }

    static long relayed() {
        return call(() -> (long) RELAYED.invokeExact());
    }

    static long released() {
        return call(() -> (long) RELEASED.invokeExact());
    }

    private interface NativeCall<T> {
        T call() throws Throwable;
    }

    private static <T> T call(NativeCall<T> call) {
        try {
            return call.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
