package dev.quiver.device.vulkan;

import dev.quiver.spi.VendorCallException;

/**
 * A Vulkan call returned an error {@code VkResult}. The message names the call and the result's symbolic
 * name, for example {@code "vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY (-2)"}. Immutable.
 */
public final class VulkanException extends VendorCallException {
    private static final long serialVersionUID = 1L;

    /**
     * An exception naming the failed call and its result.
     *
     * @param call   the Vulkan function that failed, for example {@code vkQueueSubmit}
     * @param result the {@code VkResult} it returned
     */
    public VulkanException(String call, int result) {
        super(call + " failed: " + VkResults.name(result) + " (" + result + ")", call, result, VkResults.name(result), kindOf(result));
    }

    /** {@return the {@code VkResult} it returned} */
    public int result() {
        return code();
    }

    /** {@return the symbolic name of {@link #result()}, for example {@code VK_ERROR_DEVICE_LOST}} */
    public String resultName() {
        return codeName();
    }

    /**
     * @param result what {@code call} returned
     * @param call   the Vulkan function
     * @return {@code result} when it is not an error (zero or positive)
     * @throws VulkanException when {@code result} is negative
     */
    static int check(int result, String call) {
        if (result < 0) {
            throw new VulkanException(call, result);
        }
        return result;
    }

    /** VK_ERROR_OUT_OF_HOST_MEMORY and VK_ERROR_OUT_OF_DEVICE_MEMORY; VK_ERROR_DEVICE_LOST. */
    private static Kind kindOf(int result) {
        return switch (result) {
            case -1, -2 -> Kind.OUT_OF_MEMORY;
            case -4 -> Kind.DEVICE_LOST;
            default -> Kind.FAILURE;
        };
    }
}
