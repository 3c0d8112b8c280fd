package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.testkit.CLibrary;
import dev.quiver.testkit.CProgram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.lang.foreign.StructLayout;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The Java layouts of ArrowSchema, ArrowArray and ArrowDeviceArray against what gcc says about the C
 * structs: sizes, alignments, the offset and size of every field, and the padding between fields.
 */
class AbiLayoutTest {
    /** struct name -> (field name -> {offset, size}), in declaration order. */
    private static final Map<String, Map<String, long[]>> FIELDS = new LinkedHashMap<>();
    /** "struct sizeof" / "struct alignof" -> value. */
    private static final Map<String, Long> TOTALS = new HashMap<>();

    private static final Map<String, StructLayout> LAYOUTS = Map.of(
            "ArrowSchema", ArrowSchemaLayout.LAYOUT,
            "ArrowArray", ArrowArrayLayout.LAYOUT,
            "ArrowDeviceArray", ArrowDeviceArrayLayout.LAYOUT);

    @BeforeAll
    static void askTheCompiler() {
        String out = CProgram.run(CLibrary.readResources(AbiLayoutTest.class, List.of("abi_layout.c")), List.of());
        for (String line : out.strip().split("\n")) {
            String[] word = line.strip().split(" ");
            if (word.length == 3) {
                TOTALS.put(word[0] + " " + word[1], Long.parseLong(word[2]));
            } else {
                assertEquals(4, word.length, "unexpected line from abi_layout.c: " + line);
                FIELDS.computeIfAbsent(word[0], k -> new LinkedHashMap<>())
                        .put(word[1], new long[] {Long.parseLong(word[2]), Long.parseLong(word[3])});
            }
        }
        assertEquals(LAYOUTS.keySet(), FIELDS.keySet(), "structs printed by abi_layout.c");
    }

    static Stream<Arguments> offsetConstants() {
        return Stream.of(
                Arguments.of("ArrowSchema", "format", ArrowSchemaLayout.FORMAT),
                Arguments.of("ArrowSchema", "name", ArrowSchemaLayout.NAME),
                Arguments.of("ArrowSchema", "metadata", ArrowSchemaLayout.METADATA),
                Arguments.of("ArrowSchema", "flags", ArrowSchemaLayout.FLAGS),
                Arguments.of("ArrowSchema", "n_children", ArrowSchemaLayout.N_CHILDREN),
                Arguments.of("ArrowSchema", "children", ArrowSchemaLayout.CHILDREN),
                Arguments.of("ArrowSchema", "dictionary", ArrowSchemaLayout.DICTIONARY),
                Arguments.of("ArrowSchema", "release", ArrowSchemaLayout.RELEASE),
                Arguments.of("ArrowSchema", "private_data", ArrowSchemaLayout.PRIVATE_DATA),
                Arguments.of("ArrowArray", "length", ArrowArrayLayout.LENGTH),
                Arguments.of("ArrowArray", "null_count", ArrowArrayLayout.NULL_COUNT),
                Arguments.of("ArrowArray", "offset", ArrowArrayLayout.OFFSET),
                Arguments.of("ArrowArray", "n_buffers", ArrowArrayLayout.N_BUFFERS),
                Arguments.of("ArrowArray", "n_children", ArrowArrayLayout.N_CHILDREN),
                Arguments.of("ArrowArray", "buffers", ArrowArrayLayout.BUFFERS),
                Arguments.of("ArrowArray", "children", ArrowArrayLayout.CHILDREN),
                Arguments.of("ArrowArray", "dictionary", ArrowArrayLayout.DICTIONARY),
                Arguments.of("ArrowArray", "release", ArrowArrayLayout.RELEASE),
                Arguments.of("ArrowArray", "private_data", ArrowArrayLayout.PRIVATE_DATA),
                Arguments.of("ArrowDeviceArray", "array", ArrowDeviceArrayLayout.ARRAY),
                Arguments.of("ArrowDeviceArray", "device_id", ArrowDeviceArrayLayout.DEVICE_ID),
                Arguments.of("ArrowDeviceArray", "device_type", ArrowDeviceArrayLayout.DEVICE_TYPE),
                Arguments.of("ArrowDeviceArray", "sync_event", ArrowDeviceArrayLayout.SYNC_EVENT),
                Arguments.of("ArrowDeviceArray", "reserved", ArrowDeviceArrayLayout.RESERVED));
    }

    @ParameterizedTest(name = "{0}.{1}: offset constant {2} and layout member match C")
    @MethodSource("offsetConstants")
    void fieldMatchesC(String struct, String field, long javaConstant) {
        long[] c = FIELDS.get(struct).get(field);
        assertTrue(c != null, "abi_layout.c printed no " + struct + "." + field);
        StructLayout layout = LAYOUTS.get(struct);
        assertEquals(c[0], javaConstant, struct + "." + field + " offset constant");
        assertEquals(c[0], layout.byteOffset(groupElement(field)), struct + "." + field + " layout offset");
        assertEquals(c[1], layout.select(groupElement(field)).byteSize(), struct + "." + field + " size");
    }

    @ParameterizedTest(name = "{0}: sizeof and alignof match C")
    @MethodSource("structNames")
    void sizeAndAlignmentMatchC(String struct) {
        StructLayout layout = LAYOUTS.get(struct);
        assertEquals(TOTALS.get(struct + " sizeof"), layout.byteSize(), struct + " sizeof");
        assertEquals(TOTALS.get(struct + " alignof"), layout.byteAlignment(), struct + " alignof");
    }

    @ParameterizedTest(name = "{0}: every C field has a Java member and every Java member a C field")
    @MethodSource("structNames")
    void sameFieldsInSameOrder(String struct) {
        List<String> java = LAYOUTS.get(struct).memberLayouts().stream()
                .filter(m -> !(m instanceof PaddingLayout))
                .map(m -> m.name().orElseThrow(() -> new AssertionError(struct + " has an unnamed member " + m)))
                .toList();
        assertEquals(List.copyOf(FIELDS.get(struct).keySet()), java);
    }

    @ParameterizedTest(name = "{0}: Java padding members are exactly the gaps the C compiler leaves")
    @MethodSource("structNames")
    void paddingMatchesCGaps(String struct) {
        List<List<Long>> cGaps = new ArrayList<>();
        long end = 0;
        for (long[] field : FIELDS.get(struct).values()) {
            if (field[0] > end) {
                cGaps.add(List.of(end, field[0] - end));
            }
            end = Math.max(end, field[0] + field[1]);
        }
        if (TOTALS.get(struct + " sizeof") > end) {
            cGaps.add(List.of(end, TOTALS.get(struct + " sizeof") - end));
        }
        List<List<Long>> javaPadding = new ArrayList<>();
        long at = 0;
        for (MemoryLayout member : LAYOUTS.get(struct).memberLayouts()) {
            if (member instanceof PaddingLayout) {
                javaPadding.add(List.of(at, member.byteSize()));
            }
            at += member.byteSize();
        }
        assertEquals(cGaps, javaPadding);
    }

    @Test
    void deviceArrayPaddingIsAt92To95AndReservedAt104() {
        Map<String, long[]> c = FIELDS.get("ArrowDeviceArray");
        long typeEnd = c.get("device_type")[0] + c.get("device_type")[1];
        long syncEvent = c.get("sync_event")[0];
        assertEquals(92, typeEnd, "C: end of device_type");
        assertEquals(96, syncEvent, "C: sync_event");
        MemoryLayout padding = ArrowDeviceArrayLayout.LAYOUT.memberLayouts().stream()
                .filter(m -> m instanceof PaddingLayout).findFirst().orElseThrow();
        assertEquals(syncEvent - typeEnd, padding.byteSize(), "Java padding size");
        assertEquals(typeEnd, ArrowDeviceArrayLayout.DEVICE_TYPE + 4, "Java: padding starts after device_type");
        assertEquals(104, c.get("reserved")[0], "C: reserved");
        assertEquals(c.get("reserved")[0], ArrowDeviceArrayLayout.RESERVED);
        assertEquals(c.get("reserved")[1], ArrowDeviceArrayLayout.RESERVED_BYTES);
        assertEquals(c.get("array")[1], ArrowArrayLayout.LAYOUT.byteSize(), "embedded ArrowArray size");
    }

    static Stream<String> structNames() {
        return Stream.of("ArrowSchema", "ArrowArray", "ArrowDeviceArray");
    }
}
