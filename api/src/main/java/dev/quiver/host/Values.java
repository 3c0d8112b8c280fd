package dev.quiver.host;

import dev.quiver.type.ArrowType;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/** The Java mapping of fixed-width values, shared by builders and readers. Little-endian, unaligned. */
final class Values {
    private Values() {}

    static Long integer(ArrowType.Int type, MemorySegment data, long index) {
        return switch (type.bitWidth()) {
            case 8 -> {
                byte v = data.get(ValueLayout.JAVA_BYTE, index);
                yield type.signed() ? (long) v : Byte.toUnsignedLong(v);
            }
            case 16 -> {
                short v = data.get(ValueLayout.JAVA_SHORT_UNALIGNED, index * 2);
                yield type.signed() ? (long) v : Short.toUnsignedLong(v);
            }
            case 32 -> {
                int v = data.get(ValueLayout.JAVA_INT_UNALIGNED, index * 4);
                yield type.signed() ? (long) v : Integer.toUnsignedLong(v);
            }
            default -> data.get(ValueLayout.JAVA_LONG_UNALIGNED, index * 8);
        };
    }

    static Double floating(ArrowType.FloatingPoint type, MemorySegment data, long index) {
        return switch (type.bitWidth()) {
            case 16 -> (double) Float.float16ToFloat(data.get(ValueLayout.JAVA_SHORT_UNALIGNED, index * 2));
            case 32 -> (double) data.get(ValueLayout.JAVA_FLOAT_UNALIGNED, index * 4);
            default -> data.get(ValueLayout.JAVA_DOUBLE_UNALIGNED, index * 8);
        };
    }

    static boolean bit(MemorySegment bits, long index) {
        return (bits.get(ValueLayout.JAVA_BYTE, index >>> 3) & (1 << (index & 7))) != 0;
    }

    static int offset(MemorySegment offsets, long index) {
        return offsets.get(ValueLayout.JAVA_INT_UNALIGNED, index * 4);
    }
}
