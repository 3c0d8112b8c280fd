package dev.quiver.dlpack;

import dev.quiver.abi.DLManagedTensorLayout;
import dev.quiver.abi.DLManagedTensorVersionedLayout;
import dev.quiver.abi.DLTensorLayout;
import dev.quiver.testkit.CLibrary;
import dev.quiver.testkit.CProgram;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The FFM layouts of the DLPack structs against a C compiler's {@code sizeof} and {@code offsetof}: once for
 * our own declarations of the 1.x layouts (DLTensor 48, DLManagedTensor 64, DLManagedTensorVersioned 80) and
 * once for Debian's libdlpack-dev header (DLPack 0.6, legacy struct only).
 */
class DLPackLayoutTest {

    private static Map<String, Long> layoutOf(String program, String... headers) {
        List<String> resources = new java.util.ArrayList<>(List.of(headers));
        resources.add("dlpack_layout.h");
        resources.add(program);
        Map<String, Long> out = new LinkedHashMap<>();
        for (String line : CProgram.run(CLibrary.readResources(DLPackLayoutTest.class, resources), List.of()).split("\n")) {
            String[] parts = line.trim().split(" ");
            out.put(parts[0], Long.parseLong(parts[1]));
        }
        return out;
    }

    private static Map<String, Long> javaTensorLayout() {
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("DLDevice", DLTensorLayout.DEVICE.byteSize());
        expected.put("DLDevice.device_type", DLTensorLayout.DEVICE_TYPE - DLTensorLayout.DEVICE_OFFSET);
        expected.put("DLDevice.device_id", DLTensorLayout.DEVICE_ID - DLTensorLayout.DEVICE_OFFSET);
        expected.put("DLDataType", DLTensorLayout.DTYPE.byteSize());
        expected.put("DLDataType.code", DLTensorLayout.DTYPE_CODE - DLTensorLayout.DTYPE_OFFSET);
        expected.put("DLDataType.bits", DLTensorLayout.DTYPE_BITS - DLTensorLayout.DTYPE_OFFSET);
        expected.put("DLDataType.lanes", DLTensorLayout.DTYPE_LANES - DLTensorLayout.DTYPE_OFFSET);
        expected.put("DLTensor", DLTensorLayout.LAYOUT.byteSize());
        expected.put("DLTensor.data", DLTensorLayout.DATA);
        expected.put("DLTensor.device", DLTensorLayout.DEVICE_OFFSET);
        expected.put("DLTensor.ndim", DLTensorLayout.NDIM);
        expected.put("DLTensor.dtype", DLTensorLayout.DTYPE_OFFSET);
        expected.put("DLTensor.shape", DLTensorLayout.SHAPE);
        expected.put("DLTensor.strides", DLTensorLayout.STRIDES);
        expected.put("DLTensor.byte_offset", DLTensorLayout.BYTE_OFFSET);
        expected.put("DLManagedTensor", DLManagedTensorLayout.LAYOUT.byteSize());
        expected.put("DLManagedTensor.dl_tensor", DLManagedTensorLayout.DL_TENSOR);
        expected.put("DLManagedTensor.manager_ctx", DLManagedTensorLayout.MANAGER_CTX);
        expected.put("DLManagedTensor.deleter", DLManagedTensorLayout.DELETER);
        return expected;
    }

    @Test
    void ourOneDotXDeclarationsMatchTheJavaLayouts() {
        Map<String, Long> expected = javaTensorLayout();
        expected.put("DLPackVersion", DLManagedTensorVersionedLayout.VERSION.byteSize());
        expected.put("DLPackVersion.major", DLManagedTensorVersionedLayout.VERSION_MAJOR);
        expected.put("DLPackVersion.minor", DLManagedTensorVersionedLayout.VERSION_MINOR);
        expected.put("DLManagedTensorVersioned", DLManagedTensorVersionedLayout.LAYOUT.byteSize());
        expected.put("DLManagedTensorVersioned.version", 0L);
        expected.put("DLManagedTensorVersioned.manager_ctx", DLManagedTensorVersionedLayout.MANAGER_CTX);
        expected.put("DLManagedTensorVersioned.deleter", DLManagedTensorVersionedLayout.DELETER);
        expected.put("DLManagedTensorVersioned.flags", DLManagedTensorVersionedLayout.FLAGS);
        expected.put("DLManagedTensorVersioned.dl_tensor", DLManagedTensorVersionedLayout.DL_TENSOR);
        expected.put("DLPACK_FLAG_BITMASK_READ_ONLY", DLManagedTensorVersionedLayout.FLAG_READ_ONLY);
        expected.put("DLPACK_FLAG_BITMASK_IS_COPIED", DLManagedTensorVersionedLayout.FLAG_IS_COPIED);
        expected.put("DLPACK_FLAG_BITMASK_IS_SUBBYTE_TYPE_PADDED", DLManagedTensorVersionedLayout.FLAG_IS_SUBBYTE_TYPE_PADDED);
        assertEquals(expected, layoutOf("dlpack_v1_layout.c", "dlpack_v1.h"));
    }

    @Test
    void debiansDlpackHeaderIsVersion06AndMatchesTheLegacyJavaLayouts() {
        Map<String, Long> expected = new LinkedHashMap<>();
        expected.put("DLPACK_VERSION", 60L);
        expected.putAll(javaTensorLayout());
        assertEquals(expected, layoutOf("dlpack_v06_layout.c"));
    }

    @Test
    void theCompilerGivesTheSizesTheAbiNames() {
        Map<String, Long> c = layoutOf("dlpack_v1_layout.c", "dlpack_v1.h");
        assertEquals(List.of(48L, 64L, 80L), List.of(c.get("DLTensor"), c.get("DLManagedTensor"), c.get("DLManagedTensorVersioned")));
    }
}
