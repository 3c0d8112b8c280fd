package dev.quiver.abi;

import dev.quiver.internal.abi.ArrowAsyncDeviceStreamHandlerLayout;
import dev.quiver.internal.abi.ArrowAsyncProducerLayout;
import dev.quiver.internal.abi.ArrowAsyncTaskLayout;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.StructLayout;
import java.util.List;

import static java.lang.foreign.MemoryLayout.PathElement.groupElement;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The summed offsets agree with the JDK's layout paths for every named member of every ABI struct. */
class MemberOffsetsTest {
    private static final List<StructLayout> STRUCTS = List.of(ArrowArrayLayout.LAYOUT, ArrowSchemaLayout.LAYOUT, ArrowArrayStreamLayout.LAYOUT,
            ArrowDeviceArrayLayout.LAYOUT, ArrowDeviceArrayStreamLayout.LAYOUT, ArrowAsyncDeviceStreamHandlerLayout.LAYOUT,
            ArrowAsyncProducerLayout.LAYOUT, ArrowAsyncTaskLayout.LAYOUT, DLTensorLayout.LAYOUT, DLManagedTensorLayout.LAYOUT,
            DLManagedTensorVersionedLayout.LAYOUT);

    @Test
    void everyNamedMemberIsWhereTheLayoutPathSays() {
        int checked = 0;
        for (StructLayout struct : STRUCTS) {
            for (MemoryLayout member : struct.memberLayouts()) {
                if (member.name().isPresent()) {
                    String name = member.name().get();
                    assertEquals(struct.byteOffset(groupElement(name)), MemberOffsets.of(struct, name), struct + "." + name);
                    checked++;
                }
            }
        }
        assertTrue(checked >= 40, checked + " members checked");
    }

    @Test
    void theConstantsAreTheOffsets() {
        assertEquals(ArrowArrayLayout.LAYOUT.byteOffset(groupElement("release")), ArrowArrayLayout.RELEASE);
        assertEquals(72, ArrowArrayLayout.PRIVATE_DATA);
        assertEquals(ArrowDeviceArrayLayout.LAYOUT.byteOffset(groupElement("sync_event")), ArrowDeviceArrayLayout.SYNC_EVENT);
        assertEquals(ArrowSchemaLayout.LAYOUT.byteOffset(groupElement("flags")), ArrowSchemaLayout.FLAGS);
        assertEquals(List.of(0L, 8L, 16L, 24L, 32L), List.of(ArrowArrayStreamLayout.GET_SCHEMA, ArrowArrayStreamLayout.GET_NEXT,
                ArrowArrayStreamLayout.GET_LAST_ERROR, ArrowArrayStreamLayout.RELEASE, ArrowArrayStreamLayout.PRIVATE_DATA));
        assertEquals(List.of(0L, 8L, 16L, 24L, 32L, 40L), List.of(ArrowDeviceArrayStreamLayout.DEVICE_TYPE,
                ArrowDeviceArrayStreamLayout.GET_SCHEMA, ArrowDeviceArrayStreamLayout.GET_NEXT, ArrowDeviceArrayStreamLayout.GET_LAST_ERROR,
                ArrowDeviceArrayStreamLayout.RELEASE, ArrowDeviceArrayStreamLayout.PRIVATE_DATA));
        assertEquals(40, ArrowArrayStreamLayout.LAYOUT.byteSize());
        assertEquals(48, ArrowDeviceArrayStreamLayout.LAYOUT.byteSize());
    }

    @Test
    void anUnknownMemberIsNamed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> MemberOffsets.of(ArrowArrayLayout.LAYOUT, "nope"));
        assertTrue(e.getMessage().contains("nope"), e.getMessage());
    }
}
