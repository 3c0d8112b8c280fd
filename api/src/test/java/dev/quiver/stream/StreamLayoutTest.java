package dev.quiver.stream;

import dev.quiver.internal.abi.ArrowAsyncDeviceStreamHandlerLayout;
import dev.quiver.internal.abi.ArrowAsyncProducerLayout;
import dev.quiver.internal.abi.ArrowAsyncTaskLayout;
import dev.quiver.abi.ArrowDeviceArrayStreamLayout;
import dev.quiver.testkit.CLibrary;
import dev.quiver.testkit.CProgram;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/** The stream struct layouts and the errno values, checked against what gcc says ({@code layouts.c}). */
class StreamLayoutTest {
    private static final Map<String, Long> C = new HashMap<>();

    @BeforeAll
    static void askTheCompiler() {
        String output = CProgram.run(CLibrary.readResources(StreamLayoutTest.class, List.of("async_abi.h", "layouts.c")), List.of());
        for (String line : output.strip().split("\n")) {
            String[] parts = line.split(" ");
            C.put(parts[0], Long.parseLong(parts[1]));
        }
    }

    @Test
    void arrowDeviceArrayStream() {
        assertLayout("ArrowDeviceArrayStream", ArrowDeviceArrayStreamLayout.LAYOUT, 48);
    }

    @Test
    void arrowAsyncTask() {
        assertLayout("ArrowAsyncTask", ArrowAsyncTaskLayout.LAYOUT, 16);
    }

    @Test
    void arrowAsyncProducerFollowsTheHeaderNotTheProse() {
        assertLayout("ArrowAsyncProducer", ArrowAsyncProducerLayout.LAYOUT, 40);
    }

    @Test
    void arrowAsyncDeviceStreamHandler() {
        assertLayout("ArrowAsyncDeviceStreamHandler", ArrowAsyncDeviceStreamHandlerLayout.LAYOUT, 48);
    }

    @ParameterizedTest
    @EnumSource(Errno.class)
    void errnoValuesAreThePlatforms(Errno errno) {
        Long value = C.get("errno." + errno.name());
        assertNotNull(value, "layouts.c prints " + errno.name());
        assertEquals(value.intValue(), errno.code(), errno.name());
        assertEquals(errno, Errno.of(errno.code()).orElseThrow());
    }

    /** Every named member at gcc's offset, and the size gcc reports (which is also the one ABI.md states). */
    private static void assertLayout(String struct, StructLayout layout, long documentedSize) {
        assertEquals(C.get(struct), layout.byteSize(), "sizeof(struct " + struct + ")");
        assertEquals(documentedSize, layout.byteSize(), struct);
        for (MemoryLayout member : layout.memberLayouts()) {
            member.name().ifPresent(name -> assertEquals(C.get(struct + "." + name),
                    layout.byteOffset(groupElement(name)), "offsetof(struct " + struct + ", " + name + ")"));
        }
    }
}
