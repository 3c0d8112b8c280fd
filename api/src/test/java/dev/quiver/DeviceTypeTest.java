package dev.quiver;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DeviceTypeTest {

    @ParameterizedTest(name = "{1} = {0}")
    @CsvSource(nullValues = "none", value = {
        "1, CPU, kDLCPU, none, true",
        "2, CUDA, kDLCUDA, cudaEvent_t*, false",
        "3, CUDA_HOST, kDLCUDAHost, cudaEvent_t*, true",
        "4, OPENCL, kDLOpenCL, cl_event*, false",
        "7, VULKAN, kDLVulkan, VkEvent*, false",
        "8, METAL, kDLMetal, MTLEvent*, false",
        "9, VPI, kDLVPI, none, false",
        "10, ROCM, kDLROCM, hipEvent_t*, false",
        "11, ROCM_HOST, kDLROCMHost, hipEvent_t*, true",
        "12, EXT_DEV, kDLExtDev, producer-defined, false",
        "13, CUDA_MANAGED, kDLCUDAManaged, cudaEvent_t*, true",
        "14, ONEAPI, kDLOneAPI, sycl::event*, false",
        "15, WEBGPU, kDLWebGPU, none, false",
        "16, HEXAGON, kDLHexagon, none, false"})
    void knowsEveryArrowDeviceCode(int code, String name, String dlpack, String event, boolean host) {
        DeviceType type = DeviceType.of(code);
        assertTrue(type.isKnown());
        assertEquals(code, type.code());
        assertEquals(name, type.name());
        assertEquals(dlpack, type.dlpackName().orElseThrow());
        assertEquals(event, type.eventType().orElse(null));
        assertEquals(host, type.isHostAccessible());
        assertEquals(type, DeviceType.byName(name.toLowerCase()).orElseThrow());
    }

    @Test
    void listsFourteenKnownCodesWithoutTheUnassignedOnes() {
        assertEquals(14, DeviceType.known().size());
        assertFalse(DeviceType.of(5).isKnown());
        assertFalse(DeviceType.of(6).isKnown());
    }

    @ParameterizedTest(name = "code {0} survives unchanged")
    @CsvSource(nullValues = "none", value = {"17, kDLMAIA", "18, kDLTrn", "19, none", "1000, none", "-3, none"})
    void unknownCodesSurviveUnchanged(int code, String dlpack) {
        DeviceType type = DeviceType.of(code);
        assertFalse(type.isKnown());
        assertEquals(code, type.code());
        assertEquals("UNKNOWN(" + code + ")", type.name());
        assertEquals(dlpack, type.dlpackName().orElse(null));
        assertTrue(type.eventType().isEmpty());
        assertFalse(type.isHostAccessible(), "unknown memory is never assumed host accessible");
        assertEquals(type, DeviceType.of(code));
        assertEquals(type.hashCode(), DeviceType.of(code).hashCode());
    }
}
