package dev.quiver;

import dev.quiver.CProducer.Counters;
import dev.quiver.CProducer.Structs;
import dev.quiver.host.ArrayReader;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.util.Collections;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Lengths of 2^40 that need no memory at all (producer_hostile.c): a null array, and a struct whose one
 * member is a null array. They are valid, so they import, validate and stream; but no reader may allocate
 * heap or loop in proportion to the length. The timeout only detects a hang.
 */
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HugeLengthTest {
    private static final long LENGTH = 1L << 40;

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("null_length_2_40", null),
                Arguments.of("struct_of_nulls_length_2_40", Collections.singletonMap("nulls", null)));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void validatesAndStreamsButRefusesToBoxEveryValue(String name, Object element) {
        try (Arena arena = Arena.ofConfined()) {
            Counters beforeProduce = CProducer.counters();
            Structs c = CProducer.produce(arena, name);
            Counters afterProduce = CProducer.counters();

            try (DeviceArray array = Interchange.importDevice(c.array(), c.schema(), ImportOptions.on(CProducer.NO_BACKENDS).trust(ProducerTrust.UNTRUSTED))) {
                Interchange.validateFull(array);
                ArrayReader reader = ArrayReader.of(array);
                assertEquals(LENGTH, reader.length());

                IllegalStateException refused = assertThrows(IllegalStateException.class, reader::values);
                assertTrue(refused.getMessage().contains("has " + LENGTH + " elements"), refused.getMessage());
                assertTrue(refused.getMessage().contains("read them with stream()"), refused.getMessage());
                assertEquals(Collections.nCopies(5, element), reader.stream().limit(5).toList());
                assertEquals(element, reader.getObject(LENGTH - 1), "the last element");
            }
            CProducer.assertReleasedExactlyOnce(beforeProduce, afterProduce);
        }
    }
}
