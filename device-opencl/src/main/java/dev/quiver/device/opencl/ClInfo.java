package dev.quiver.device.opencl;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Reads values through the {@code clGet*Info} functions, which all share one shape. Stateless; thread-safe.
 */
final class ClInfo {
    private ClInfo() {}

    /** One {@code clGet*Info} function bound to its library. */
    @FunctionalInterface
    interface Query {
        int get(MemorySegment object, int param, long size, MemorySegment value, MemorySegment sizeRet);
    }

    /** @return a string value, without its terminating NUL and surrounding blanks */
    static String string(Query query, MemorySegment object, int param, String call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment size = arena.allocate(JAVA_LONG);
            OpenClException.check(query.get(object, param, 0, MemorySegment.NULL, size), call);
            long length = size.get(JAVA_LONG, 0);
            if (length == 0) {
                return "";
            }
            MemorySegment value = arena.allocate(length);
            OpenClException.check(query.get(object, param, length, value, MemorySegment.NULL), call);
            byte[] bytes = value.toArray(JAVA_BYTE);
            int end = 0;
            while (end < bytes.length && bytes[end] != 0) {
                end++;
            }
            return new String(bytes, 0, end, StandardCharsets.UTF_8).strip();
        }
    }

    /** @return a {@code cl_uint} or {@code cl_bool} value */
    static int uint(Query query, MemorySegment object, int param, String call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(JAVA_INT);
            OpenClException.check(query.get(object, param, JAVA_INT.byteSize(), value, MemorySegment.NULL), call);
            return value.get(JAVA_INT, 0);
        }
    }

    /** @return a {@code cl_ulong} or {@code cl_bitfield} value */
    static long ulong(Query query, MemorySegment object, int param, String call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(JAVA_LONG);
            OpenClException.check(query.get(object, param, JAVA_LONG.byteSize(), value, MemorySegment.NULL), call);
            return value.get(JAVA_LONG, 0);
        }
    }

    /** @return a handle value ({@code cl_platform_id}, {@code cl_context}, ...) */
    static MemorySegment handle(Query query, MemorySegment object, int param, String call) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(ADDRESS);
            OpenClException.check(query.get(object, param, ADDRESS.byteSize(), value, MemorySegment.NULL), call);
            return value.get(ADDRESS, 0);
        }
    }
}
