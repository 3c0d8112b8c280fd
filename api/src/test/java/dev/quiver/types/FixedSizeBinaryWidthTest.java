package dev.quiver.types;

import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.FormatString;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A fixed-size binary's width in bits must fit the {@code int} its layout holds: every buffer size, every
 * check and every read follows from it. A width of 2^29 + 1 bytes would otherwise give 8 bits a value, so an
 * array whose values each span 512 MiB would pass its checks with one byte per value.
 */
class FixedSizeBinaryWidthTest {

    @Test
    void theWidestWidthSizesItsDataBufferExactly() {
        int widest = Integer.MAX_VALUE / 8;
        ArrowType type = FormatString.parse("w:" + widest);
        assertEquals(new ArrowType.FixedSizeBinary(widest), type);
        assertEquals(3L * widest, BufferLayout.of(type).buffers().get(1).bytesFor(3));
    }

    @ParameterizedTest
    @ValueSource(ints = {Integer.MAX_VALUE / 8 + 1, (1 << 29) + 1, Integer.MAX_VALUE})
    void widerWidthsAreRefused(int width) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> FormatString.parse("w:" + width));
        assertTrue(e.getMessage().contains("\"w:" + width + "\""), e.getMessage());
        assertTrue(e.getMessage().contains("at most " + Integer.MAX_VALUE / 8), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> new ArrowType.FixedSizeBinary(width));
    }
}
