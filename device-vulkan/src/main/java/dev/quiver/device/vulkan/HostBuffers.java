package dev.quiver.device.vulkan;

import dev.quiver.spi.DeviceException;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;

/**
 * The host memory a {@link VulkanDevice} hands out from {@code allocateHost}: buffers of host-visible,
 * host-coherent memory (host-cached where offered), mapped for their life, by the host address of their
 * mapping. It owns each {@link HostBuffer} from {@link #allocate} until {@link #free} or {@link #destroyAll},
 * and finds the buffer that holds a host segment, so that copies from or to it are a {@code vkCmdCopyBuffer}
 * with no staging.
 *
 * <p>Thread-safe: the table is concurrent, and a buffer leaves it exactly once. {@link #destroyAll} is for a
 * device's close, after all other use has ended.
 */
final class HostBuffers {
    private final DeviceContext context;
    private final String owner;
    private final ConcurrentSkipListMap<Long, HostBuffer> buffers = new ConcurrentSkipListMap<>();

    /**
     * @param context the device's {@code VkDevice} and physical device
     * @param owner   the device, as messages name it
     */
    HostBuffers(DeviceContext context, String owner) {
        this.context = context;
        this.owner = owner;
    }

    /** A host buffer: its buffer and memory, and the host's view of it. */
    record HostBuffer(BufferMemory memory, MemorySegment mapped) {}

    /** @return the host's view of a new mapped buffer of {@code byteSize} bytes, at an address aligned to {@code alignment} */
    MemorySegment allocate(long byteSize, long alignment) {
        BufferMemory memory = BufferMemory.create(context.device(), context.info(), byteSize, DeviceBuffers.USAGE, MemoryPurpose.STAGING);
        try {
            HostMapping mapping = HostMapping.mapIfVisible(context.device(), memory, context.info().nonCoherentAtomSize());
            MemorySegment mapped = mapping.segment().asSlice(0, byteSize);
            if (mapped.address() % alignment != 0) {
                throw new DeviceException("mapped host memory of " + owner + " at 0x"
                        + Long.toHexString(mapped.address()) + " is not aligned to " + alignment + " bytes");
            }
            buffers.put(mapped.address(), new HostBuffer(memory, mapped));
            return mapped;
        } catch (RuntimeException e) {
            memory.destroy(context.device());
            throw e;
        }
    }

    /** Destroys the buffer whose mapping begins at {@code memory}. */
    void free(MemorySegment memory) {
        HostBuffer buffer = buffers.remove(memory.address());
        if (buffer == null) {
            throw new IllegalArgumentException("0x" + Long.toHexString(memory.address()) + " is not host memory of " + owner);
        }
        buffer.memory.destroy(context.device());
    }

    /** @return the host buffer that holds all of {@code host}, or null */
    HostBuffer holding(MemorySegment host) {
        if (buffers.isEmpty() || !host.isNative()) {
            return null;
        }
        Map.Entry<Long, HostBuffer> below = buffers.floorEntry(host.address());
        if (below == null) {
            return null;
        }
        HostBuffer buffer = below.getValue();
        return host.address() + host.byteSize() <= buffer.mapped.address() + buffer.mapped.byteSize() ? buffer : null;
    }

    /** @return how many buffers the table holds */
    int count() {
        return buffers.size();
    }

    /** Destroys every buffer in the table: call only when no work is pending. */
    void destroyAll() {
        buffers.values().forEach(b -> b.memory.destroy(context.device()));
        buffers.clear();
    }
}
