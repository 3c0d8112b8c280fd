package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.Bindings;
import dev.quiver.device.ffm.CFunction;
import dev.quiver.device.ffm.Downcalls;
import dev.quiver.device.ffm.ProcAddressLoader;
import dev.quiver.device.ffm.VendorLibrary;

import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * The Vulkan functions {@link VulkanSurvey} calls, bound through the shared binding layer: the loader library
 * opened as a {@link VendorLibrary}, its {@code vkGetInstanceProcAddr} as a {@link ProcAddressLoader}, the
 * {@link VkGlobalFunction}s bound when loaded and an instance's {@link VkInstanceFunction}s when asked for. A
 * result other than {@code VK_SUCCESS} that a caller checks becomes a {@link VulkanException}. The library stays
 * loaded for the life of the process; an instance's bindings are valid until the instance is destroyed.
 * Immutable; thread-safe.
 */
final class VulkanCalls {
    /** The loader's function that returns every other: {@code vkGetInstanceProcAddr}, as {@code vulkan_core.h} declares it. */
    static final CFunction GET_INSTANCE_PROC_ADDR = CFunction.of(
            "PFN_vkVoidFunction vkGetInstanceProcAddr(VkInstance, const char *)", ADDRESS, ADDRESS, ADDRESS);
    private static final int VK_SUCCESS = 0;

    private final ProcAddressLoader getInstanceProcAddr;
    private final Bindings<VkGlobalFunction> global;

    private VulkanCalls(ProcAddressLoader getInstanceProcAddr, Bindings<VkGlobalFunction> global) {
        this.getInstanceProcAddr = getInstanceProcAddr;
        this.global = global;
    }

    /**
     * Opens the Vulkan loader and binds its global functions.
     *
     * @param library the loader's name for the dynamic linker, or its path
     * @return the calls
     * @throws VendorLibrary.NotFoundException if the library cannot be loaded, lacks {@code vkGetInstanceProcAddr},
     *                                         or does not return a global function (a Vulkan 1.0 loader has no
     *                                         {@code vkEnumerateInstanceVersion})
     */
    static VulkanCalls load(String library) throws VendorLibrary.NotFoundException {
        ProcAddressLoader loader = ProcAddressLoader.find(VendorLibrary.loadFirst(List.of(library)), GET_INSTANCE_PROC_ADDR);
        return new VulkanCalls(loader, bindings(loader.bindAll(MemorySegment.NULL, VkGlobalFunction.class)));
    }

    /** @return the global functions */
    Bindings<VkGlobalFunction> global() {
        return global;
    }

    /**
     * @param instance a {@code VkInstance}, which must outlive the bindings' use
     * @return its functions
     * @throws VendorLibrary.NotFoundException naming a function the instance does not have
     */
    Bindings<VkInstanceFunction> of(MemorySegment instance) throws VendorLibrary.NotFoundException {
        return bindings(getInstanceProcAddr.bindAll(instance, VkInstanceFunction.class));
    }

    private static <F extends Enum<F>> Bindings<F> bindings(Downcalls downcalls) {
        return new Bindings<>(downcalls, VK_SUCCESS, (calls, function, result) -> new VulkanException(function.name(), result));
    }
}
