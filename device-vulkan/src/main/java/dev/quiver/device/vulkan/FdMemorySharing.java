package dev.quiver.device.vulkan;

import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;

import java.lang.foreign.MemorySegment;
import java.util.function.Consumer;

import static org.lwjgl.vulkan.VK10.vkDestroyBuffer;

/**
 * {@link IpcMechanism#VULKAN_FD} memory sharing for one {@link VulkanDevice}: exporting the memory of its
 * buffers as opaque file descriptors ({@code vkGetMemoryFdKHR}), and opening descriptors another process
 * exported ({@code VkImportMemoryFdInfoKHR}), with the checks of a memory file before and after the driver
 * imports it ({@link ImportedFile}, {@link HeaderPin}). Opened memory enters the device's
 * {@link DeviceBuffers} as imported until its {@link ImportedMemory} is closed. It also owns the UUID of the
 * driver's memory file headers, learned once.
 *
 * <p>Thread-safe: every method may be called from any thread. Descriptors handed in stay the caller's (a
 * duplicate is imported); a descriptor exported is the caller's to close. Learning the header UUID twice at
 * once is harmless: both learn the same value.
 */
final class FdMemorySharing {
    private static final System.Logger LOG = System.getLogger(VulkanDevice.class.getName());

    private final DeviceContext context;
    private final DeviceBuffers buffers;
    private final String owner;
    /** The UUID of this driver's memory file headers, learned on the first import; empty where its exports have none. */
    private volatile byte[] headerUuid;

    /**
     * @param context the device's {@code VkDevice} and physical device
     * @param buffers the device's buffer table, whose buffers are exportable
     * @param owner   the device, as messages name it
     */
    FdMemorySharing(DeviceContext context, DeviceBuffers buffers, String owner) {
        this.context = context;
        this.buffers = buffers;
        this.owner = owner;
    }

    /** Exports the memory of a buffer the device allocated as a new descriptor, with {@code offset} beside it. */
    IpcMemoryHandle export(MemorySegment pointer, long offset) {
        Allocation allocation = buffers.get(VkHandles.require(pointer, "exported VkBuffer"));
        if (allocation == null || allocation.imported) {
            throw new IllegalArgumentException("VkBuffer 0x" + Long.toHexString(pointer.address()) + " is not a buffer "
                    + owner + " allocated" + (allocation == null ? "" : " (it was opened from another process)"));
        }
        if (offset < 0 || offset > allocation.size || offset >= allocation.memory.allocationSize()) {
            throw new IllegalArgumentException("offset " + offset + " lies outside the " + allocation.size + "-byte VkBuffer 0x"
                    + Long.toHexString(pointer.address()));
        }
        int fd = ExternalMemoryFd.export(context.device(), allocation.memory.memory());
        return new IpcMemoryHandle(IpcMechanism.VULKAN_FD, new byte[0], fd, offset, allocation.memory.allocationSize());
    }

    /**
     * Opens exported memory as a new {@code VkBuffer} covering all of it, running {@code checked} after the
     * descriptor was checked and before the driver imports it.
     *
     * @param handle  a {@link IpcMechanism#VULKAN_FD} handle with its allocation size
     * @param checked runs with the checked descriptor
     * @return the opened memory, owned by the caller
     */
    ImportedMemory open(IpcMemoryHandle handle, Consumer<ImportedFile> checked) {
        if (handle.mechanism() != IpcMechanism.VULKAN_FD) {
            throw new IllegalArgumentException(owner + " opens " + IpcMechanism.VULKAN_FD + " handles, not " + handle);
        }
        if (handle.allocationSize() <= 0) {
            throw new IllegalArgumentException("a " + IpcMechanism.VULKAN_FD + " handle needs the exported allocationSize: " + handle);
        }
        ImportedFile file = ImportedFile.before(handle.fileDescriptor(), handle.allocationSize(), memoryFileHeaderUuid());
        checked.accept(file);
        int fd = FileDescriptors.duplicate(handle.fileDescriptor());
        BufferMemory memory = BufferMemory.importFd(context.device(), context.info(), handle.allocationSize(), DeviceBuffers.USAGE,
                MemoryPurpose.DEVICE, ExternalMemoryFd.HANDLE_TYPE, fd);
        MemorySegment buffer = buffers.register(memory, handle.allocationSize(), true);
        HostMapping mapping = buffers.get(buffer.address()).mapping;
        FileMapping mapped = file.driverMapping(mapping == null ? null : mapping.segment());
        long pointer = mapping == null ? 0 : mapping.segment().address();
        HeaderPin pin = file.pin(mapped, pointer, memoryFileHeaderUuid());
        try {
            file.after(handle.fileDescriptor(), mapped, pointer, handle.allocationSize());
            if (pin == null) {
                throw new IllegalArgumentException("the driver's mapping of the descriptor at 0x" + Long.toHexString(pointer)
                        + " leaves no room for the header its free reads: it could not be freed safely");
            }
        } catch (RuntimeException e) {
            buffers.remove(buffer.address());
            freeImported(memory, pin);
            throw e;
        }
        return new ImportedMemory(buffer, buffer, handle.allocationSize(), opened -> {
            Allocation allocation = buffers.remove(opened.address());
            if (allocation != null) {
                allocation.awaitUsers(context.device());
                freeImported(allocation.memory, pin);
            }
        });
    }

    /**
     * Frees imported memory once nothing uses it, after pinning what its driver unmaps ({@link HeaderPin}); memory
     * that cannot be pinned is left allocated (its buffer destroyed), since its free could unmap any memory of this
     * process.
     */
    private void freeImported(BufferMemory memory, HeaderPin pin) {
        if (pin == null) {
            vkDestroyBuffer(context.device(), memory.buffer(), null);
            LOG.log(System.Logger.Level.WARNING, "imported memory 0x" + Long.toHexString(memory.memory()) + " of " + owner
                    + " is left allocated: its driver's free would read a header another process can rewrite");
            return;
        }
        pin.freeze();
        memory.destroy(context.device());
    }

    /**
     * {@return the UUID of the headers of this driver's memory files, or null where its exports are no such files},
     * learned once from an export of a 1-byte buffer of its own
     */
    private byte[] memoryFileHeaderUuid() {
        byte[] uuid = headerUuid;
        if (uuid == null) {
            MemorySegment probe = buffers.allocate(1);
            try {
                int fd = ExternalMemoryFd.export(context.device(), buffers.get(probe.address()).memory.memory());
                try {
                    uuid = MemoryFileHeader.uuidOfOwnExport(fd);
                } finally {
                    FileDescriptors.close(fd);
                }
            } finally {
                buffers.free(probe);
            }
            headerUuid = uuid;
        }
        return uuid.length == 0 ? null : uuid;
    }
}
