package dev.quiver.device.vulkan;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;
import org.lwjgl.system.MemoryStack;
import org.lwjgl.vulkan.VkDevice;
import org.lwjgl.vulkan.VkEventCreateInfo;
import org.lwjgl.vulkan.VkMemoryBarrier;
import org.lwjgl.vulkan.VkQueue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;

import static org.lwjgl.vulkan.VK10.VK_ACCESS_MEMORY_READ_BIT;
import static org.lwjgl.vulkan.VK10.VK_ACCESS_MEMORY_WRITE_BIT;
import static org.lwjgl.vulkan.VK10.VK_ACCESS_TRANSFER_READ_BIT;
import static org.lwjgl.vulkan.VK10.VK_ACCESS_TRANSFER_WRITE_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_DST_BIT;
import static org.lwjgl.vulkan.VK10.VK_BUFFER_USAGE_TRANSFER_SRC_BIT;
import static org.lwjgl.vulkan.VK10.VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;
import static org.lwjgl.vulkan.VK10.VK_PIPELINE_STAGE_HOST_BIT;
import static org.lwjgl.vulkan.VK10.VK_PIPELINE_STAGE_TRANSFER_BIT;
import static org.lwjgl.vulkan.VK10.vkCmdCopyBuffer;
import static org.lwjgl.vulkan.VK10.vkCmdSetEvent;
import static org.lwjgl.vulkan.VK10.vkCmdWaitEvents;
import static org.lwjgl.vulkan.VK10.vkCreateEvent;
import static org.lwjgl.vulkan.VK10.vkDestroyEvent;
import static org.lwjgl.vulkan.VK10.vkResetEvent;
import static org.lwjgl.vulkan.VK10.VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;

/**
 * A Vulkan device as a Quiver backend device ({@code ARROW_DEVICE_VULKAN}, code 7).
 *
 * <p><b>Pointers.</b> A pointer returned by {@link #allocate} and each {@code buffers[i]} of a VULKAN
 * ArrowDeviceArray is a {@code VkBuffer} handle (a non-dispatchable 64-bit handle) carried as the
 * segment's address. It is not a host address and never has offsets added to it: Arrow offsets and copy
 * offsets travel beside it. The buffer is bound at offset 0 to its own {@code VkDeviceMemory}
 * ({@link #deviceMemory}), from a device-local memory type, with usage transfer-src, transfer-dst and
 * storage-buffer, on this device's {@linkplain #vkDevice() VkDevice}; a consumer uses it with that device.
 * Where that memory type is host-visible (lavapipe's, integrated GPUs'), the memory is mapped for the host
 * for the buffer's life.
 * Allocating 0 bytes returns a real, distinct 1-byte {@code VkBuffer} (Vulkan forbids empty buffers) that
 * reads as empty: any copy addressing a byte of it fails the range check.
 *
 * <p><b>Copies.</b> Between the host and a mapped buffer, the bytes are copied on the mapped pointer, with
 * no staging; between the host and any other buffer, through a host-visible staging buffer and
 * {@code vkCmdCopyBuffer} on the stream ({@link HostTransfers} says when which). Either way the host source
 * may be reused as soon as a host-to-device copy returns, and a device-to-host copy is complete when it
 * returns (the host destination may be confined to the calling thread). Host memory of {@link #allocateHost}
 * (host-visible buffers mapped for their life, the pool Quiver takes pinned host memory from) is copied by the
 * device itself, {@code vkCmdCopyBuffer} from or to that buffer with no staging: an upload from it is in
 * stream order (the memory must stay unchanged until the stream's work completes, as the SPI says), a download
 * into it is complete when it returns. Within the device: {@code vkCmdCopyBuffer}, through a
 * temporary buffer when source and destination ranges of one buffer overlap. Copies from or to a
 * {@code VkBuffer} this device did not allocate are allowed (it must belong to this VkDevice and have the
 * transfer usage); they are not range-checked.
 *
 * <p><b>Streams.</b> A stream is an ordered submission sequence on this device's one queue ({@link SubmissionChain}):
 * every operation is one submission that waits on the stream's previous one through a binary semaphore and
 * signals a fence. Stream handles are ids into a table; {@link MemorySegment#NULL} is the default stream.
 *
 * <p><b>Events.</b> An event handle is a {@code VkEvent}; a VULKAN array's {@code sync_event} points to
 * one ({@code VkEvent*}). Recording submits {@code vkCmdSetEvent} (stage: all commands) on the stream; making
 * a stream wait submits {@code vkCmdWaitEvents} there. Vulkan has no host wait on events: for an event this
 * device made, {@link #waitEvent} waits on the fence of the submission that sets it; for a foreign event it
 * polls {@code vkGetEventStatus} with backoff ({@link EventPolling}). Re-recording an event waits for the
 * work that used it and resets it from the host first. An event never recorded counts as complete.
 *
 * <p><b>Native handles and adoption.</b> {@link #nativeHandles()} names the Vulkan objects the device works
 * on. {@link #adoptStream} takes this device's own {@code VkQueue} and makes a new stream on it;
 * {@link #adoptEvent} takes a {@code VkEvent} of this {@code VkDevice} (see {@link StreamAndEventAdoption}).
 * Adopted events are never destroyed by {@link #close()}.
 *
 * <p><b>Threading and ownership.</b> All methods may be called from any thread. Command buffers come from
 * a pool per recording thread; queue submissions hold the queue lock. Devices made by the probe live as long
 * as the process. A device made by {@link #adopt} is owned by the caller, who {@link #close() closes} it
 * before destroying the adopted {@code VkDevice}; the adopted handles themselves stay the application's.
 */
public final class VulkanDevice implements BackendDevice, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(VulkanDevice.class.getName());
    /** Usage of every buffer {@link #allocate} makes. */
    static final int BUFFER_USAGE = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT
            | VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
    /** The stage mask of {@code vkCmdSetEvent}; waits name it plus the host stage. */
    static final int EVENT_STAGE = VK_PIPELINE_STAGE_ALL_COMMANDS_BIT;

    private final DeviceContext context;
    private final long instance;
    private final long deviceId;
    private final boolean adopted;
    private final boolean validation;
    private final boolean exportsMemory;
    private final Map<Long, Allocation> allocations = new ConcurrentHashMap<>();
    private final Map<Long, SubmissionChain> streams = new ConcurrentHashMap<>();
    private final Map<Long, EventState> events = new ConcurrentHashMap<>();
    private final AtomicLong nextStream = new AtomicLong(1);
    private final SubmissionChain defaultStream;
    private final StreamAndEventAdoption adoption;
    private final HostTransfers transfers;
    /** The buffers of {@link #allocateHost}, by the host address of their mapping. */
    private final java.util.concurrent.ConcurrentSkipListMap<Long, HostBuffer> hostBuffers = new java.util.concurrent.ConcurrentSkipListMap<>();
    private final Map<String, MemorySegment> handles;
    private volatile boolean closed;
    /** The UUID of this driver's memory file headers, learned on the first import; empty where its exports have none. */
    private volatile byte[] headerUuid;

    VulkanDevice(DeviceContext context, long instance, long deviceId, boolean adopted, boolean validation, boolean exportsMemory) {
        this.context = context;
        this.exportsMemory = exportsMemory;
        this.instance = instance;
        this.deviceId = deviceId;
        this.adopted = adopted;
        this.validation = validation;
        this.defaultStream = new SubmissionChain(context);
        this.transfers = new HostTransfers(context);
        this.adoption = new StreamAndEventAdoption(context, streams, events, this::createStream, this);
        Map<String, MemorySegment> named = new LinkedHashMap<>();
        named.put("VkInstance", MemorySegment.ofAddress(instance));
        named.put("VkPhysicalDevice", MemorySegment.ofAddress(context.device().getPhysicalDevice().address()));
        named.put("VkDevice", MemorySegment.ofAddress(context.device().address()));
        named.put("VkQueue", MemorySegment.ofAddress(context.queue().address()));
        named.put("queueFamilyIndex", MemorySegment.ofAddress(context.queueFamily()));
        this.handles = Collections.unmodifiableMap(named);
    }

    /**
     * Wraps an application's Vulkan objects, given as raw handles (for LWJGL: {@code instance.address()},
     * {@code physicalDevice.address()}, {@code device.address()}, {@code queue.address()}), so that Quiver
     * allocates, copies and synchronises on them. The application keeps owning the handles: it must keep
     * them alive until it {@link #close() closes} the returned device, and must not submit to {@code queue}
     * concurrently with Quiver (use {@link #adopt(long, long, long, long, int, int, Lock)} to share a lock).
     *
     * @param instance         the {@code VkInstance}, created with {@code apiVersion}
     * @param physicalDevice   a {@code VkPhysicalDevice} of that instance
     * @param device           a {@code VkDevice} created from it
     * @param queue            a {@code VkQueue} of {@code device}
     * @param queueFamilyIndex the family {@code queue} belongs to; it must support transfers
     * @param apiVersion       the {@code apiVersion} the instance was created with, 1.1 or later
     * @return a device owned by the caller
     * @throws IllegalArgumentException if a handle is 0, the version is older than 1.1, the physical device is
     *         not one of the instance's, or the queue family cannot transfer
     * @throws dev.quiver.spi.DeviceException if the Vulkan library cannot be loaded
     */
    public static VulkanDevice adopt(long instance, long physicalDevice, long device, long queue, int queueFamilyIndex, int apiVersion) {
        return Adoption.adopt(instance, physicalDevice, device, queue, queueFamilyIndex, apiVersion, new ReentrantLock());
    }

    /**
     * Like {@link #adopt(long, long, long, long, int, int)}, with the lock the application holds around its
     * own submissions to {@code queue}; Quiver holds it around each of its {@code vkQueueSubmit} calls.
     *
     * @param instance         the {@code VkInstance}
     * @param physicalDevice   a {@code VkPhysicalDevice} of that instance
     * @param device           a {@code VkDevice} created from it
     * @param queue            a {@code VkQueue} of {@code device}
     * @param queueFamilyIndex the family {@code queue} belongs to
     * @param apiVersion       the instance's {@code apiVersion}, 1.1 or later
     * @param queueLock        the lock guarding {@code queue}
     * @return a device owned by the caller
     */
    public static VulkanDevice adopt(long instance, long physicalDevice, long device, long queue, int queueFamilyIndex,
                                     int apiVersion, Lock queueLock) {
        return Adoption.adopt(instance, physicalDevice, device, queue, queueFamilyIndex, apiVersion, queueLock);
    }

    // ---- identity -----------------------------------------------------------------------------

    @Override
    public int deviceType() {
        return DeviceTypeCodes.VULKAN;
    }

    /** @return the index of the physical device among its instance's ({@code vkEnumeratePhysicalDevices}) */
    @Override
    public long deviceId() {
        return deviceId;
    }

    @Override
    public String name() {
        return context.info().name();
    }

    /** @return the bytes of the device-local memory heaps */
    @Override
    public long totalMemory() {
        return context.info().deviceLocalBytes();
    }

    /** @return false: pointers are {@code VkBuffer} handles, not host addresses */
    @Override
    public boolean hostAccessible() {
        return false;
    }

    /** @return API version, device type, driver version, maximum allocation, heap sizes, queue family, validation */
    @Override
    public Map<String, String> properties() {
        return context.info().describe(validation, adopted);
    }

    /** {@return the raw {@code VkInstance} handle} */
    public long vkInstance() {
        return instance;
    }

    /** {@return the raw {@code VkPhysicalDevice} handle} */
    public long vkPhysicalDevice() {
        return context.device().getPhysicalDevice().address();
    }

    /** {@return the raw {@code VkDevice} handle that owns this device's buffers and events} */
    public long vkDevice() {
        return context.device().address();
    }

    /** {@return the raw {@code VkQueue} handle streams submit to} */
    public long vkQueue() {
        return context.queue().address();
    }

    /** {@return the queue family of {@link #vkQueue()}} */
    public int queueFamilyIndex() {
        return context.queueFamily();
    }

    /**
     * {@return the {@code VkDeviceMemory} bound to it, or empty if this device did not allocate it}
     * @param buffer a pointer returned by {@link #allocate}
     */
    public OptionalLong deviceMemory(MemorySegment buffer) {
        Allocation allocation = allocations.get(buffer.address());
        return allocation == null ? OptionalLong.empty() : OptionalLong.of(allocation.memory.memory());
    }

    // ---- memory -------------------------------------------------------------------------------

    /** Makes a buffer of its own device-local memory, and maps that memory for the host where it is host-visible. */
    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        checkOpen();
        // Each buffer is bound at offset 0 of its own memory, so every alignment holds relative to it.
        BufferMemory memory = exportsMemory
                ? BufferMemory.createExportable(context.device(), context.info(), byteSize, BUFFER_USAGE, MemoryPurpose.DEVICE, ExternalMemoryFd.HANDLE_TYPE)
                : BufferMemory.create(context.device(), context.info(), byteSize, BUFFER_USAGE, MemoryPurpose.DEVICE);
        return register(memory, byteSize, false);
    }

    /** Maps the memory where it is host-visible and registers the buffer; destroys it if that fails. */
    private MemorySegment register(BufferMemory memory, long byteSize, boolean imported) {
        HostMapping mapping;
        try {
            mapping = HostMapping.mapIfVisible(context.device(), memory, context.info().nonCoherentAtomSize(), imported);
        } catch (RuntimeException e) {
            memory.destroy(context.device());
            throw e;
        }
        allocations.put(memory.buffer(), new Allocation(memory, byteSize, mapping, imported));
        return MemorySegment.ofAddress(memory.buffer());
    }

    // ---- inter-process memory -----------------------------------------------------------------

    /**
     * @return {@link IpcMechanism#VULKAN_FD} where the device offers {@code VK_KHR_external_memory_fd} for
     *         its buffers (then every buffer of {@link #allocate} is exportable), else {@link IpcMechanism#NONE};
     *         always NONE for an adopted device
     */
    @Override
    public IpcMechanism ipcMechanism() {
        return exportsMemory ? IpcMechanism.VULKAN_FD : IpcMechanism.NONE;
    }

    /**
     * Exports the memory of a buffer of {@link #allocate} as an opaque file descriptor
     * ({@code vkGetMemoryFdKHR}). The handle's {@link IpcMemoryHandle#fileDescriptor()} is a new descriptor
     * of this process, owned by the caller, who passes it to the peer (for example by {@code SCM_RIGHTS}, or
     * the peer opens {@code /proc/<pid>/fd/<fd>}) and closes it; its {@link IpcMemoryHandle#handle() bytes}
     * are empty, its offset is {@code offset} (the buffer is bound at offset 0 of its memory) and its
     * allocation size is the {@code VkDeviceMemory}'s {@code allocationSize}, which the importer must use.
     *
     * @param pointer a {@code VkBuffer} of {@link #allocate}, not one opened by {@link #openMemory}
     * @param offset  byte offset into it, from 0 to its size
     * @throws IllegalArgumentException if the buffer is not one this device allocated, or the offset is outside it
     */
    @Override
    public IpcMemoryHandle exportMemory(MemorySegment pointer, long offset) {
        if (!exportsMemory) {
            return BackendDevice.super.exportMemory(pointer, offset);
        }
        checkOpen();
        Allocation allocation = allocations.get(requireHandle(pointer, "exported VkBuffer"));
        if (allocation == null || allocation.imported) {
            throw new IllegalArgumentException("VkBuffer 0x" + Long.toHexString(pointer.address()) + " is not a buffer "
                    + this + " allocated" + (allocation == null ? "" : " (it was opened from another process)"));
        }
        if (offset < 0 || offset > allocation.size || offset >= allocation.memory.allocationSize()) {
            throw new IllegalArgumentException("offset " + offset + " lies outside the " + allocation.size + "-byte VkBuffer 0x"
                    + Long.toHexString(pointer.address()));
        }
        int fd = ExternalMemoryFd.export(context.device(), allocation.memory.memory());
        return new IpcMemoryHandle(IpcMechanism.VULKAN_FD, new byte[0], fd, offset, allocation.memory.allocationSize());
    }

    /**
     * Imports memory another process exported with {@link #exportMemory} into a new {@code VkDeviceMemory}
     * ({@code VkImportMemoryFdInfoKHR}) and binds a new {@code VkBuffer} covering all of it at offset 0. The
     * returned {@link ImportedMemory#pointer()} is that {@code VkBuffer}, an opaque handle like every buffer
     * pointer of this device: the exported bytes begin at {@link IpcMemoryHandle#offset()} in it, an offset
     * that travels beside the handle, and {@link ImportedMemory#byteSize()} is the whole allocation. The
     * handle's descriptor stays the caller's (a duplicate is imported). Closing waits for the work that uses
     * the buffer, then destroys the buffer and frees the imported memory; never {@link #free} it.
     *
     * <p>A descriptor that is a memory file is checked before and after the import ({@link ImportedFile}): its
     * header, where this driver maps such files by one, must map no more than the file holds, and the range the
     * driver mapped for the allocation must lie inside the file; otherwise nothing stays imported and this throws,
     * before anything reads the memory.
     *
     * @param handle a {@link IpcMechanism#VULKAN_FD} handle with its allocation size
     * @throws IllegalArgumentException if the handle is of another mechanism, has no allocation size, its
     *                                  descriptor is not open in this process, or the memory file's header or the
     *                                  driver's mapping of it lies past the file's end (naming both sizes)
     * @throws VulkanException          if the driver refuses the descriptor ({@code vkAllocateMemory})
     */
    @Override
    public ImportedMemory openMemory(IpcMemoryHandle handle) {
        if (!exportsMemory) {
            return BackendDevice.super.openMemory(handle);
        }
        checkOpen();
        return openMemory(handle, file -> { });
    }

    /**
     * {@link #openMemory(IpcMemoryHandle)}, running {@code checked} after the descriptor was checked and before the
     * driver imports it: the moment another process that still writes the file may change what the driver reads.
     *
     * @param handle  a {@link IpcMechanism#VULKAN_FD} handle with its allocation size
     * @param checked runs with the checked descriptor
     * @return the opened memory, owned by the caller
     */
    ImportedMemory openMemory(IpcMemoryHandle handle, java.util.function.Consumer<ImportedFile> checked) {
        if (handle.mechanism() != IpcMechanism.VULKAN_FD) {
            throw new IllegalArgumentException(this + " opens " + IpcMechanism.VULKAN_FD + " handles, not " + handle);
        }
        if (handle.allocationSize() <= 0) {
            throw new IllegalArgumentException("a " + IpcMechanism.VULKAN_FD + " handle needs the exported allocationSize: " + handle);
        }
        ImportedFile file = ImportedFile.before(handle.fileDescriptor(), handle.allocationSize(), memoryFileHeaderUuid());
        checked.accept(file);
        int fd = FileDescriptors.duplicate(handle.fileDescriptor());
        BufferMemory memory = BufferMemory.importFd(context.device(), context.info(), handle.allocationSize(), BUFFER_USAGE,
                MemoryPurpose.DEVICE, ExternalMemoryFd.HANDLE_TYPE, fd);
        MemorySegment buffer = register(memory, handle.allocationSize(), true);
        HostMapping mapping = allocations.get(buffer.address()).mapping;
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
            allocations.remove(buffer.address());
            freeImported(memory, pin);
            throw e;
        }
        return new ImportedMemory(buffer, buffer, handle.allocationSize(), opened -> {
            Allocation allocation = allocations.remove(opened.address());
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
            org.lwjgl.vulkan.VK10.vkDestroyBuffer(context.device(), memory.buffer(), null);
            LOG.log(System.Logger.Level.WARNING, "imported memory 0x" + Long.toHexString(memory.memory()) + " of " + this
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
            MemorySegment probe = allocate(1, 1);
            try {
                int fd = ExternalMemoryFd.export(context.device(), allocations.get(probe.address()).memory.memory());
                try {
                    uuid = MemoryFileHeader.uuidOfOwnExport(fd);
                } finally {
                    FileDescriptors.close(fd);
                }
            } finally {
                free(probe);
            }
            headerUuid = uuid;
        }
        return uuid.length == 0 ? null : uuid;
    }

    // ---- host memory the device copies directly -------------------------------------------------

    /** @return from the physical device's {@code VkPhysicalDeviceType} */
    @Override
    public dev.quiver.spi.HardwareKind hardwareKind() {
        return VulkanLibrary.kindOf(context.info().deviceType());
    }

    /** @return the Vulkan loader LWJGL loaded */
    @Override
    public java.util.Optional<dev.quiver.spi.LoadedLibrary> vendorLibrary() {
        return VulkanLibrary.loaded();
    }

    /** {@return true on a discrete GPU, whose copies from its own host buffers need no staging memcpy} */
    @Override
    public boolean pinsHostMemory() {
        return context.info().deviceType() == VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    }

    /**
     * A buffer of host-visible, host-coherent memory (host-cached where offered), mapped for its life: the host
     * reads and writes it at memory speed, and copies between it and this device's buffers are a
     * {@code vkCmdCopyBuffer} from or to it, with no staging copy on the host.
     */
    @Override
    public MemorySegment allocateHost(long byteSize, long alignment) {
        checkOpen();
        BufferMemory memory = BufferMemory.create(context.device(), context.info(), byteSize, BUFFER_USAGE, MemoryPurpose.STAGING);
        try {
            HostMapping mapping = HostMapping.mapIfVisible(context.device(), memory, context.info().nonCoherentAtomSize());
            MemorySegment mapped = mapping.segment().asSlice(0, byteSize);
            if (mapped.address() % alignment != 0) {
                throw new dev.quiver.spi.DeviceException("mapped host memory of " + this + " at 0x"
                        + Long.toHexString(mapped.address()) + " is not aligned to " + alignment + " bytes");
            }
            hostBuffers.put(mapped.address(), new HostBuffer(memory, mapped));
            return mapped;
        } catch (RuntimeException e) {
            memory.destroy(context.device());
            throw e;
        }
    }

    @Override
    public void freeHost(MemorySegment memory) {
        HostBuffer buffer = hostBuffers.remove(memory.address());
        if (buffer == null) {
            throw new IllegalArgumentException("0x" + Long.toHexString(memory.address()) + " is not host memory of " + this);
        }
        buffer.memory.destroy(context.device());
    }

    /** A host buffer of {@link #allocateHost}: its buffer and memory, and the host's view of it. */
    private record HostBuffer(BufferMemory memory, MemorySegment mapped) {}

    /** @return the host buffer that holds all of {@code host}, or null */
    private HostBuffer hostBufferOf(MemorySegment host) {
        if (hostBuffers.isEmpty() || !host.isNative()) {
            return null;
        }
        java.util.Map.Entry<Long, HostBuffer> below = hostBuffers.floorEntry(host.address());
        if (below == null) {
            return null;
        }
        HostBuffer buffer = below.getValue();
        return host.address() + host.byteSize() <= buffer.mapped.address() + buffer.mapped.byteSize() ? buffer : null;
    }

    /** Waits for pending work that uses the buffer, then destroys it and frees its memory. */
    @Override
    public void free(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return;
        }
        Allocation allocation = allocations.get(pointer.address());
        if (allocation != null && allocation.imported) {
            throw new IllegalArgumentException("VkBuffer 0x" + Long.toHexString(pointer.address())
                    + " was opened from another process: close its ImportedMemory instead of freeing it");
        }
        if (allocation == null || !allocations.remove(pointer.address(), allocation)) {
            throw new IllegalArgumentException("VkBuffer 0x" + Long.toHexString(pointer.address())
                    + " was not allocated by " + this + " or was already freed");
        }
        allocation.awaitUsers(context.device());
        allocation.memory.destroy(context.device());
    }

    // ---- copies -------------------------------------------------------------------------------

    /** Writes mapped memory directly where nothing is pending on it, else stages the bytes (see {@link HostTransfers}). */
    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        SubmissionChain target = stream(stream);
        Allocation allocation = checkRange(destination, destinationOffset, source.byteSize(), "destination");
        if (source.byteSize() == 0) {
            return;
        }
        HostBuffer host = hostBufferOf(source);
        if (host != null) {
            long from = source.address() - host.mapped.address();
            long hostBuffer = host.memory.buffer();
            long to = destination.address();
            target.submit(commands -> Commands.copy(commands, hostBuffer, from, to, destinationOffset, source.byteSize()),
                    List.of(), allocation == null ? List.of() : List.of(allocation));
        } else {
            transfers.toDevice(target, source, destination.address(), destinationOffset, allocation);
        }
    }

    /** Reads mapped, host-cached memory directly after the work before it, else through staging (see {@link HostTransfers}). */
    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        SubmissionChain target = stream(stream);
        Allocation allocation = checkRange(source, sourceOffset, destination.byteSize(), "source");
        if (destination.byteSize() == 0) {
            return;
        }
        HostBuffer host = hostBufferOf(destination);
        if (host != null) {
            long to = destination.address() - host.mapped.address();
            long hostBuffer = host.memory.buffer();
            long from = source.address();
            target.submit(commands -> Commands.copy(commands, from, sourceOffset, hostBuffer, to, destination.byteSize()),
                    List.of(), allocation == null ? List.of() : List.of(allocation)).await(context.device());
            target.retireCompleted();
        } else {
            transfers.toHost(target, source.address(), sourceOffset, destination, allocation);
        }
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        SubmissionChain target = stream(stream);
        List<Tracked> used = new ArrayList<>(2);
        Allocation from = checkRange(source, sourceOffset, byteCount, "source");
        Allocation to = checkRange(destination, destinationOffset, byteCount, "destination");
        if (from != null) {
            used.add(from);
        }
        if (to != null && to != from) {
            used.add(to);
        }
        if (byteCount == 0) {
            return;
        }
        boolean overlapping = source.address() == destination.address()
                && sourceOffset < destinationOffset + byteCount && destinationOffset < sourceOffset + byteCount;
        if (!overlapping) {
            target.submit(commands -> Commands.copy(commands, source.address(), sourceOffset, destination.address(), destinationOffset, byteCount),
                    List.of(), used);
            return;
        }
        // vkCmdCopyBuffer forbids overlapping regions: go through a temporary buffer, freed when done.
        BufferMemory temporary = BufferMemory.create(context.device(), context.info(), byteCount, BUFFER_USAGE, MemoryPurpose.DEVICE);
        target.submit(commands -> {
            Commands.copy(commands, source.address(), sourceOffset, temporary.buffer(), 0, byteCount);
            Commands.memory(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT, VK_ACCESS_TRANSFER_READ_BIT);
            Commands.copy(commands, temporary.buffer(), 0, destination.address(), destinationOffset, byteCount);
        }, List.of(() -> temporary.destroy(context.device())), used);
    }

    // ---- streams ------------------------------------------------------------------------------

    /** @return {@link MemorySegment#NULL}: the default stream */
    @Override
    public MemorySegment defaultStream() {
        return MemorySegment.NULL;
    }

    /** @return a new stream: an id into this device's stream table, not a Vulkan handle */
    @Override
    public MemorySegment createStream() {
        checkOpen();
        long id = nextStream.getAndIncrement();
        streams.put(id, new SubmissionChain(context));
        return MemorySegment.ofAddress(id);
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        stream(stream).synchronize();
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        SubmissionChain removed = stream.equals(MemorySegment.NULL) ? null : streams.remove(stream.address());
        if (removed == null) {
            throw new IllegalArgumentException("not a stream created by " + this + ": 0x" + Long.toHexString(stream.address()));
        }
        removed.destroy();
    }

    // ---- events -------------------------------------------------------------------------------

    @Override
    public boolean supportsEvents() {
        return true;
    }

    /** @return a new {@code VkEvent}, unsignalled, owned by the caller until {@link #destroyEvent} */
    @Override
    public MemorySegment createEvent() {
        checkOpen();
        try (MemoryStack stack = MemoryStack.stackPush()) {
            LongBuffer out = stack.mallocLong(1);
            VulkanException.check(vkCreateEvent(context.device(), VkEventCreateInfo.calloc(stack).sType$Default(), null, out), "vkCreateEvent");
            long event = out.get(0);
            events.put(event, new EventState(event, false));
            return MemorySegment.ofAddress(event);
        }
    }

    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        SubmissionChain target = stream(stream);
        long handle = requireHandle(event, "event");
        EventState state = events.get(handle);
        if (state != null && state.mayBeSet()) {
            state.awaitUsers(context.device());
            VulkanException.check(vkResetEvent(context.device(), handle), "vkResetEvent");
        }
        if (state != null && state.setIfIdle(context.device(), target)) {
            return;
        }
        Submission submission = target.submit(commands -> vkCmdSetEvent(commands, handle, EVENT_STAGE), List.of(),
                state == null ? List.of() : List.of(state));
        if (state != null) {
            state.recorded(submission, target);
        }
    }

    @Override
    public void waitEvent(MemorySegment event) {
        long handle = requireHandle(event, "event");
        EventState state = events.get(handle);
        Submission setter = state == null ? null : state.setter();
        if (setter != null) {
            setter.await(context.device());
            state.setterStream().retireCompleted();
        } else if (state == null || state.adopted) {
            EventPolling.await(context.device(), handle);
        }
    }

    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        SubmissionChain target = stream(stream);
        long handle = requireHandle(event, "event");
        EventState state = events.get(handle);
        if (state != null && state.countsAsComplete()) {
            return;
        }
        // An adopted event Quiver never recorded is set by the application from the host.
        int sourceStages = state != null && state.adopted && state.setter() == null ? VK_PIPELINE_STAGE_HOST_BIT
                : EVENT_STAGE | VK_PIPELINE_STAGE_HOST_BIT;
        target.submit(commands -> {
            try (MemoryStack stack = MemoryStack.stackPush()) {
                VkMemoryBarrier.Buffer memory = VkMemoryBarrier.calloc(1, stack).sType$Default()
                        .srcAccessMask(VK_ACCESS_MEMORY_WRITE_BIT)
                        .dstAccessMask(VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT);
                vkCmdWaitEvents(commands, stack.longs(handle), sourceStages,
                        VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, memory, null, null);
            }
        }, List.of(), state == null ? List.of() : List.of(state));
    }

    @Override
    public boolean isEventComplete(MemorySegment event) {
        long handle = requireHandle(event, "event");
        EventState state = events.get(handle);
        if (state != null && state.countsAsComplete()) {
            return true;
        }
        return EventPolling.isSet(context.device(), handle);
    }

    /** Waits for pending work that sets or waits on the event, then destroys it. */
    @Override
    public void destroyEvent(MemorySegment event) {
        long handle = requireHandle(event, "event");
        EventState state = events.remove(handle);
        if (state == null) {
            throw new IllegalArgumentException("VkEvent 0x" + Long.toHexString(handle) + " was not created by " + this
                    + " or was already destroyed");
        }
        state.awaitUsers(context.device());
        vkDestroyEvent(context.device(), handle, null);
    }

    // ---- native handles and adoption ----------------------------------------------------------

    /**
     * @return {@code VkInstance}, {@code VkPhysicalDevice}, {@code VkDevice}, {@code VkQueue} and
     *         {@code queueFamilyIndex} (the family index as an address value), borrowed: the backend (or, for
     *         an adopted device, the application) owns them
     */
    @Override
    public Map<String, MemorySegment> nativeHandles() {
        return handles;
    }

    /**
     * Accepts this device's own {@code VkQueue} (see {@link #nativeHandles()}), making a new stream on it, or a
     * stream handle of this device, returned as it is.
     *
     * @param nativeStream the {@code VkQueue}, a stream handle, or NULL for the default stream
     * @return the stream handle
     * @throws IllegalArgumentException for another queue: every stream of a device submits to its one queue,
     *                                  since {@code vkCmdWaitEvents} waits only for events set on the same queue
     */
    @Override
    public MemorySegment adoptStream(MemorySegment nativeStream) {
        checkOpen();
        return adoption.adoptStream(nativeStream);
    }

    /**
     * @param nativeEvent a {@code VkEvent} of this device's {@code VkDevice}, owned by the caller
     * @return the same handle, which every event method then takes; until Quiver records it, the application
     *         sets it from the host, and waits on it are waits for that
     * @throws IllegalArgumentException if it is {@code VK_NULL_HANDLE} or {@code vkGetEventStatus} fails on it
     */
    @Override
    public MemorySegment adoptEvent(MemorySegment nativeEvent) {
        checkOpen();
        return adoption.adoptEvent(nativeEvent);
    }

    /**
     * For a stream made from the {@code VkQueue}: waits for its work and drops it; the queue is never
     * destroyed (its {@code VkDevice} owns it), whatever {@code destroy} says. For a stream of
     * {@link #createStream}: {@link #destroyStream} if {@code destroy}, else nothing.
     */
    @Override
    public void forgetStream(MemorySegment stream, boolean destroy) {
        boolean fromQueue = adoption.forgetQueueStream(stream);
        if (!fromQueue && destroy) {
            destroyStream(stream);
        } else if (!fromQueue) {
            stream(stream); // checks it is a live stream of this device, which stays as it is
        }
    }

    /** Waits for Quiver's work that uses the event, then drops it; destroys it ({@link #destroyEvent}) if asked. */
    @Override
    public void forgetEvent(MemorySegment event, boolean destroy) {
        if (destroy) {
            destroyEvent(event);
        } else {
            adoption.forgetAdoptedEvent(event);
        }
    }

    /** Reads the {@code VkEvent} (a 64-bit handle on every platform) that {@code syncEvent} points to. */
    @Override
    public MemorySegment eventFromSyncEvent(MemorySegment syncEvent) {
        return MemorySegment.ofAddress(syncEvent.reinterpret(Long.BYTES).get(ValueLayout.JAVA_LONG_UNALIGNED, 0));
    }

    // ---- lifecycle ----------------------------------------------------------------------------

    /**
     * Waits for all work, destroys every Vulkan object Quiver made on the device (streams' semaphores,
     * fences, command pools, staging buffers, and buffers and events still live, which are reported as
     * leaks), and leaves the adopted handles to the application. Idempotent; call from one thread after
     * all other use has ended.
     *
     * @throws IllegalStateException for a device the probe made: those live as long as the process
     */
    @Override
    public void close() {
        if (!adopted) {
            throw new IllegalStateException(this + " belongs to the Vulkan provider and lives as long as the process");
        }
        if (closed) {
            return;
        }
        closed = true;
        defaultStream.destroy();
        streams.values().forEach(SubmissionChain::destroy);
        streams.clear();
        List<Long> own = events.values().stream().filter(e -> !e.adopted).map(e -> e.event).toList();
        if (!own.isEmpty() || !allocations.isEmpty() || !hostBuffers.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, this + " closed with " + allocations.size() + " buffer(s), "
                    + hostBuffers.size() + " host buffer(s) and " + own.size() + " event(s) never freed; destroying them");
        }
        hostBuffers.values().forEach(b -> b.memory.destroy(context.device()));
        hostBuffers.clear();
        own.forEach(e -> vkDestroyEvent(context.device(), e, null));
        events.clear();
        allocations.values().forEach(a -> a.memory.destroy(context.device()));
        allocations.clear();
        context.close();
    }

    @Override
    public String toString() {
        return "VULKAN:" + deviceId + " " + name() + (adopted ? " (adopted)" : "");
    }

    VkDevice device() {
        return context.device();
    }

    VkQueue queue() {
        return context.queue();
    }

    DeviceContext context() {
        return context;
    }

    /** @return the allocation of a buffer this device made, or null */
    Allocation allocationOf(MemorySegment buffer) {
        return allocations.get(buffer.address());
    }

    // ---- helpers ------------------------------------------------------------------------------

    private SubmissionChain stream(MemorySegment handle) {
        checkOpen();
        if (handle.equals(MemorySegment.NULL)) {
            return defaultStream;
        }
        SubmissionChain stream = streams.get(handle.address());
        if (stream == null) {
            throw new IllegalArgumentException("not a live stream of " + this + ": 0x" + Long.toHexString(handle.address()));
        }
        return stream;
    }

    /** @return the allocation the range is in, or null for a buffer this device did not allocate */
    private Allocation checkRange(MemorySegment buffer, long offset, long bytes, String role) {
        long handle = requireHandle(buffer, role + " VkBuffer");
        if (offset < 0) {
            throw new IllegalArgumentException(role + " offset is negative: " + offset);
        }
        Allocation allocation = allocations.get(handle);
        if (allocation == null) {
            return null;
        }
        if (offset > allocation.size || bytes > allocation.size - offset) {
            throw new IllegalArgumentException(role + " range [" + offset + ", " + offset + " + " + bytes + ") is past the end of the "
                    + allocation.size + "-byte VkBuffer 0x" + Long.toHexString(handle));
        }
        return allocation;
    }

    private static long requireHandle(MemorySegment segment, String what) {
        if (segment.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(what + " is VK_NULL_HANDLE");
        }
        return segment.address();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }
}
