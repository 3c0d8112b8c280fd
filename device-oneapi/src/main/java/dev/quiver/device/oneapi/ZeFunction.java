package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.CFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every Level Zero entry point this backend calls: the one table from which the bindings are made and
 * against which the header checks run. The constant's name is the symbol looked up in
 * {@code libze_loader.so.1}; {@link #c()} is its C declaration in {@code ze_api.h} (parameter types
 * only). All are core API of Level Zero 1.0, present in every loader.
 *
 * <p>Java carries {@code ze_result_t}, {@code uint32_t} and the {@code *_flags_t} types as {@code JAVA_INT};
 * {@code size_t} and {@code uint64_t} as {@code JAVA_LONG}; handles and pointers as {@code ADDRESS}.
 */
enum ZeFunction implements CFunction.Table {
    zeInit(CFunction.of("ze_result_t zeInit(ze_init_flags_t)", JAVA_INT, JAVA_INT)),
    zeDriverGet(CFunction.of("ze_result_t zeDriverGet(uint32_t *, ze_driver_handle_t *)", JAVA_INT, ADDRESS, ADDRESS)),
    zeDeviceGet(CFunction.of("ze_result_t zeDeviceGet(ze_driver_handle_t, uint32_t *, ze_device_handle_t *)", JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
    zeDeviceGetProperties(CFunction.of("ze_result_t zeDeviceGetProperties(ze_device_handle_t, ze_device_properties_t *)", JAVA_INT, ADDRESS, ADDRESS)),
    zeDeviceGetMemoryProperties(CFunction.of("ze_result_t zeDeviceGetMemoryProperties(ze_device_handle_t, uint32_t *, ze_device_memory_properties_t *)",
            JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
    zeContextCreate(CFunction.of("ze_result_t zeContextCreate(ze_driver_handle_t, const ze_context_desc_t *, ze_context_handle_t *)",
            JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
    zeCommandListCreateImmediate(CFunction.of("ze_result_t zeCommandListCreateImmediate(ze_context_handle_t, ze_device_handle_t, "
            + "const ze_command_queue_desc_t *, ze_command_list_handle_t *)", JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
    zeCommandListDestroy(CFunction.of("ze_result_t zeCommandListDestroy(ze_command_list_handle_t)", JAVA_INT, ADDRESS)),
    zeCommandListAppendMemoryCopy(CFunction.of("ze_result_t zeCommandListAppendMemoryCopy(ze_command_list_handle_t, void *, const void *, "
            + "size_t, ze_event_handle_t, uint32_t, ze_event_handle_t *)", JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, ADDRESS, JAVA_INT, ADDRESS)),
    zeCommandListAppendBarrier(CFunction.of("ze_result_t zeCommandListAppendBarrier(ze_command_list_handle_t, ze_event_handle_t, uint32_t, "
            + "ze_event_handle_t *)", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS)),
    zeMemAllocDevice(CFunction.of("ze_result_t zeMemAllocDevice(ze_context_handle_t, const ze_device_mem_alloc_desc_t *, size_t, size_t, "
            + "ze_device_handle_t, void **)", JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS)),
    zeMemAllocHost(CFunction.of("ze_result_t zeMemAllocHost(ze_context_handle_t, const ze_host_mem_alloc_desc_t *, size_t, size_t, void **)",
            JAVA_INT, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS)),
    zeMemAllocShared(CFunction.of("ze_result_t zeMemAllocShared(ze_context_handle_t, const ze_device_mem_alloc_desc_t *, "
            + "const ze_host_mem_alloc_desc_t *, size_t, size_t, ze_device_handle_t, void **)",
            JAVA_INT, ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS)),
    zeMemFree(CFunction.of("ze_result_t zeMemFree(ze_context_handle_t, void *)", JAVA_INT, ADDRESS, ADDRESS)),
    zeMemGetAddressRange(CFunction.of("ze_result_t zeMemGetAddressRange(ze_context_handle_t, const void *, void **, size_t *)",
            JAVA_INT, ADDRESS, ADDRESS, ADDRESS, ADDRESS)),
    zeMemGetIpcHandle(CFunction.of("ze_result_t zeMemGetIpcHandle(ze_context_handle_t, const void *, ze_ipc_mem_handle_t *)",
            JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
    zeMemOpenIpcHandle(CFunction.of("ze_result_t zeMemOpenIpcHandle(ze_context_handle_t, ze_device_handle_t, ze_ipc_mem_handle_t, "
            + "ze_ipc_memory_flags_t, void **)", JAVA_INT, ADDRESS, ADDRESS, ZeIpc.MEM_HANDLE, JAVA_INT, ADDRESS)),
    zeMemCloseIpcHandle(CFunction.of("ze_result_t zeMemCloseIpcHandle(ze_context_handle_t, const void *)", JAVA_INT, ADDRESS, ADDRESS)),
    zeEventPoolCreate(CFunction.of("ze_result_t zeEventPoolCreate(ze_context_handle_t, const ze_event_pool_desc_t *, uint32_t, "
            + "ze_device_handle_t *, ze_event_pool_handle_t *)", JAVA_INT, ADDRESS, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)),
    zeEventCreate(CFunction.of("ze_result_t zeEventCreate(ze_event_pool_handle_t, const ze_event_desc_t *, ze_event_handle_t *)",
            JAVA_INT, ADDRESS, ADDRESS, ADDRESS)),
    zeEventDestroy(CFunction.of("ze_result_t zeEventDestroy(ze_event_handle_t)", JAVA_INT, ADDRESS)),
    zeEventHostSynchronize(CFunction.of("ze_result_t zeEventHostSynchronize(ze_event_handle_t, uint64_t)", JAVA_INT, ADDRESS, JAVA_LONG)),
    zeEventHostReset(CFunction.of("ze_result_t zeEventHostReset(ze_event_handle_t)", JAVA_INT, ADDRESS));

    private final CFunction c;

    ZeFunction(CFunction c) {
        this.c = c;
    }

    @Override
    public CFunction c() {
        return c;
    }
}
