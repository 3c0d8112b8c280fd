package dev.quiver.device.vulkan;

import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkBufferCopy;
import org.lwjgl.vulkan.VkCommandBuffer;
import org.lwjgl.vulkan.VkMemoryBarrier;

import static org.lwjgl.vulkan.VK10.VK_ACCESS_HOST_READ_BIT;
import static org.lwjgl.vulkan.VK10.VK_ACCESS_HOST_WRITE_BIT;
import static org.lwjgl.vulkan.VK10.VK_ACCESS_MEMORY_WRITE_BIT;
import static org.lwjgl.vulkan.VK10.VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
import static org.lwjgl.vulkan.VK10.VK_PIPELINE_STAGE_HOST_BIT;
import static org.lwjgl.vulkan.VK10.vkCmdCopyBuffer;
import static org.lwjgl.vulkan.VK10.vkCmdPipelineBarrier;

/** Buffer copies and global memory barriers as Quiver records them into command buffers. Stateless; thread-safe. */
final class Commands {
    private Commands() {}

    /** Records {@code vkCmdCopyBuffer} of one region. */
    static void copy(VkCommandBuffer commands, long source, long sourceOffset, long destination, long destinationOffset, long bytes) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            vkCmdCopyBuffer(commands, source, destination, VkBufferCopy.calloc(1, stack).srcOffset(sourceOffset).dstOffset(destinationOffset).size(bytes));
        }
    }

    /** Records one global memory barrier between the given stages and accesses. */
    static void memory(VkCommandBuffer commands, int sourceStage, int destinationStage, int sourceAccess, int destinationAccess) {
        try (MemoryStack stack = MemoryStack.stackPush()) {
            VkMemoryBarrier.Buffer memory = VkMemoryBarrier.calloc(1, stack).sType$Default()
                    .srcAccessMask(sourceAccess).dstAccessMask(destinationAccess);
            vkCmdPipelineBarrier(commands, sourceStage, destinationStage, 0, memory, null, null);
        }
    }

    /**
     * Makes every write of the commands before it, and of earlier submissions to the queue, visible to the
     * host once the submission's fence is waited on: a fence wait alone makes device writes available but not
     * visible to host reads, and host-visible buffers are read and written on the host after such a wait.
     */
    static void toHost(VkCommandBuffer commands) {
        memory(commands, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_HOST_BIT, VK_ACCESS_MEMORY_WRITE_BIT,
                VK_ACCESS_HOST_READ_BIT | VK_ACCESS_HOST_WRITE_BIT);
    }
}
