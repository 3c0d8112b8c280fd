package dev.quiver.device.vulkan;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.PinnedHostMemory;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.HardwareKind;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;
import dev.quiver.spi.LoadedLibrary;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.locks.Lock;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;

import static org.lwjgl.vulkan.VK10.VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;

/**
 * A Vulkan device as a Quiver backend device ({@code ARROW_DEVICE_VULKAN}, code 7).
 *
 * <p><b>Pointers.</b> A pointer returned by {@link #allocate} and each {@code buffers[i]} of a VULKAN
 * ArrowDeviceArray is a {@code VkBuffer} handle of this device's {@linkplain #vkDevice() VkDevice}, carried as
 * the segment's address: not a host address, and never offset (offsets travel beside it). It is bound at
 * offset 0 to its own device-local {@code VkDeviceMemory} ({@link #deviceMemory}), mapped for the host for the
 * buffer's life where that memory is host-visible (lavapipe's, integrated GPUs'). Allocating 0 bytes returns a
 * real, distinct 1-byte {@code VkBuffer} (Vulkan forbids empty buffers) that reads as empty.
 *
 * <p><b>Copies, streams and events.</b> Host copies of a mapped buffer are memory copies on the mapped pointer;
 * other host copies go through staging buffers and {@code vkCmdCopyBuffer}. Either way the host source may be
 * reused as soon as a host-to-device copy returns, and a device-to-host copy is complete when it returns (the
 * host destination may be confined to the calling thread). A stream is an ordered submission sequence on this
 * device's one queue; {@link MemorySegment#NULL} is the default stream. An event handle is a {@code VkEvent}; a
 * VULKAN array's {@code sync_event} points to one ({@code VkEvent*}). The package documentation says how each
 * works, with host memory of {@link #allocateHost}, overlapping ranges and buffers of other code.
 *
 * <p><b>Threading and ownership.</b> All methods may be called from any thread. Command buffers come from
 * a pool per recording thread; queue submissions hold the queue lock. Devices made by the probe live as long
 * as the process. A device made by {@link #adopt} is owned by the caller, who {@link #close() closes} it
 * before destroying the adopted {@code VkDevice}; the adopted handles themselves stay the application's, as do
 * the events of {@link #adoptEvent}, which {@link #close()} never destroys.
 */
public final class VulkanDevice implements BackendDevice, PinnedHostMemory, dev.quiver.spi.DeviceEvents,
        dev.quiver.spi.IpcMemory, dev.quiver.spi.NativeAdoption, AutoCloseable {
    private static final System.Logger LOG = System.getLogger(VulkanDevice.class.getName());

    private final DeviceContext context;
    private final long instance;
    private final long deviceId;
    private final boolean adopted;
    private final boolean validation;
    private final boolean exportsMemory;
    private final String label;
    private final DeviceBuffers buffers;
    private final HostBuffers hostBuffers;
    private final FdMemorySharing sharing;
    private final DeviceCopies copies;
    private final StreamTable streams;
    private final DeviceEvents events;
    private final StreamAndEventAdoption adoption;
    private final Map<String, MemorySegment> handles;
    private volatile boolean closed;

    VulkanDevice(DeviceContext context, long instance, long deviceId, boolean adopted, boolean validation, boolean exportsMemory) {
        this.context = context;
        this.exportsMemory = exportsMemory;
        this.instance = instance;
        this.deviceId = deviceId;
        this.adopted = adopted;
        this.validation = validation;
        this.label = "VULKAN:" + deviceId + " " + context.info().name() + (adopted ? " (adopted)" : "");
        this.buffers = new DeviceBuffers(context, exportsMemory, label);
        this.hostBuffers = new HostBuffers(context, label);
        this.sharing = new FdMemorySharing(context, buffers, label);
        this.copies = new DeviceCopies(context, buffers, hostBuffers);
        this.streams = new StreamTable(context, label);
        this.events = new DeviceEvents(context, label);
        this.adoption = new StreamAndEventAdoption(context, streams.table(), events.table(), streams::create, label);
        this.handles = context.nativeHandles(instance);
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
        return buffers.deviceMemory(buffer);
    }

    /** Makes a buffer of its own device-local memory, and maps that memory for the host where it is host-visible. */
    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        checkOpen();
        return buffers.allocate(byteSize);
    }

    /** Waits for pending work that uses the buffer, then destroys it and frees its memory. */
    @Override
    public void free(MemorySegment pointer) {
        if (!pointer.equals(MemorySegment.NULL)) {
            buffers.free(pointer);
        }
    }

    /** {@return the capability; {@link dev.quiver.spi.IpcMemory} only where {@link #ipcMechanism()} is not NONE} */
    @Override
    public <C extends dev.quiver.spi.DeviceCapability> java.util.Optional<C> capability(Class<C> kind) {
        if (kind == dev.quiver.spi.IpcMemory.class && ipcMechanism() == dev.quiver.spi.IpcMechanism.NONE) {
            return java.util.Optional.empty();
        }
        return BackendDevice.super.capability(kind);
    }

    /** @return {@link IpcMechanism#VULKAN_FD} where every buffer of {@link #allocate} is exportable, else (and when adopted) NONE */
    @Override
    public IpcMechanism ipcMechanism() {
        return exportsMemory ? IpcMechanism.VULKAN_FD : IpcMechanism.NONE;
    }

    /**
     * Exports the memory of a buffer of {@link #allocate} as an opaque file descriptor ({@code vkGetMemoryFdKHR}):
     * {@link IpcMemoryHandle#fileDescriptor()} is a new descriptor of this process, the caller's to pass to the peer
     * ({@code SCM_RIGHTS}, {@code /proc/<pid>/fd/<fd>}) and close; the {@link IpcMemoryHandle#handle() bytes} are
     * empty, the offset is {@code offset}, and the allocation size, which the importer must use, the memory's.
     *
     * @param pointer a {@code VkBuffer} of {@link #allocate}, not one opened by {@link #openMemory}
     * @param offset  byte offset into it, from 0 to its size
     * @throws IllegalArgumentException if the buffer is not one this device allocated, or the offset is outside it
     */
    @Override
    public IpcMemoryHandle exportMemory(MemorySegment pointer, long offset) {
        if (!exportsMemory) {
            throw new UnsupportedOperationException(this + " has no inter-process mechanism for its memory");
        }
        checkOpen();
        return sharing.export(pointer, offset);
    }

    /**
     * Imports memory another process exported with {@link #exportMemory} ({@code VkImportMemoryFdInfoKHR}) as a
     * new {@code VkBuffer} covering all of it: {@link ImportedMemory#pointer()} is that opaque handle, the exported
     * bytes begin at {@link IpcMemoryHandle#offset()} in it, and {@link ImportedMemory#byteSize()} is the whole
     * allocation. The handle's descriptor stays the caller's (a duplicate is imported). Closing waits for the work
     * that uses the buffer, then destroys the buffer and frees the imported memory; never {@link #free} it. A
     * descriptor that is a memory file is checked before and after the import, as the package documentation says.
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
            throw new UnsupportedOperationException(this + " has no inter-process mechanism for its memory");
        }
        checkOpen();
        return sharing.open(handle, file -> { });
    }

    /**
     * {@link #openMemory(IpcMemoryHandle)}, running {@code checked} after the descriptor was checked and before the
     * driver imports it: the moment another process that still writes the file may change what the driver reads.
     *
     * @param handle  a {@link IpcMechanism#VULKAN_FD} handle with its allocation size
     * @param checked runs with the checked descriptor
     * @return the opened memory, owned by the caller
     */
    ImportedMemory openMemory(IpcMemoryHandle handle, Consumer<ImportedFile> checked) {
        return sharing.open(handle, checked);
    }

    /** @return from the physical device's {@code VkPhysicalDeviceType} */
    @Override
    public HardwareKind hardwareKind() {
        return VulkanLibrary.kindOf(context.info().deviceType());
    }

    /** @return the Vulkan loader LWJGL loaded */
    @Override
    public Optional<LoadedLibrary> vendorLibrary() {
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
        return hostBuffers.allocate(byteSize, alignment);
    }

    @Override
    public void freeHost(MemorySegment memory) {
        hostBuffers.free(memory);
    }

    /** Writes mapped memory directly where nothing is pending on it, else stages the bytes (see {@link HostTransfers}). */
    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        copies.fromHost(stream(stream), source, destination, destinationOffset);
    }

    /** Reads mapped, host-cached memory directly after the work before it, else through staging (see {@link HostTransfers}). */
    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        copies.toHost(stream(stream), source, sourceOffset, destination);
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        copies.withinDevice(stream(stream), source, sourceOffset, destination, destinationOffset, byteCount);
    }

    /** @return {@link MemorySegment#NULL}: the default stream */
    @Override
    public MemorySegment defaultStream() {
        return MemorySegment.NULL;
    }

    /** @return a new stream: an id into this device's stream table, not a Vulkan handle */
    @Override
    public MemorySegment createStream() {
        checkOpen();
        return streams.create();
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        stream(stream).synchronize();
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        streams.destroy(stream);
    }

    /** @return a new {@code VkEvent}, unsignalled, owned by the caller until {@link #destroyEvent} */
    @Override
    public MemorySegment createEvent() {
        checkOpen();
        return events.create();
    }

    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        events.record(stream(stream), event);
    }

    @Override
    public void waitEvent(MemorySegment event) {
        events.await(event);
    }

    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        events.streamWait(stream(stream), event);
    }

    @Override
    public boolean isEventComplete(MemorySegment event) {
        return events.isComplete(event);
    }

    /** Waits for pending work that sets or waits on the event, then destroys it. */
    @Override
    public void destroyEvent(MemorySegment event) {
        events.destroy(event);
    }

    /** @return {@code VkInstance}, {@code VkPhysicalDevice}, {@code VkDevice}, {@code VkQueue} and {@code queueFamilyIndex}, borrowed */
    @Override
    public Map<String, MemorySegment> nativeHandles() {
        return handles;
    }

    /** Makes a new stream on this device's own {@code VkQueue}; returns a stream handle of this device as it is; refuses any other queue. */
    @Override
    public MemorySegment adoptStream(MemorySegment nativeStream) {
        checkOpen();
        return adoption.adoptStream(nativeStream);
    }

    /** Takes a {@code VkEvent} of this device's {@code VkDevice}, which stays the caller's, as the same handle. */
    @Override
    public MemorySegment adoptEvent(MemorySegment nativeEvent) {
        checkOpen();
        return adoption.adoptEvent(nativeEvent);
    }

    /** Drops a stream made from the {@code VkQueue} after its work, never destroying the queue; else {@link #destroyStream} if asked. */
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
        streams.destroyAll();
        int ownEvents = events.ownCount();
        if (ownEvents != 0 || buffers.count() != 0 || hostBuffers.count() != 0) {
            LOG.log(System.Logger.Level.WARNING, this + " closed with " + buffers.count() + " buffer(s), "
                    + hostBuffers.count() + " host buffer(s) and " + ownEvents + " event(s) never freed; destroying them");
        }
        hostBuffers.destroyAll();
        events.destroyOwn();
        buffers.destroyAll();
        context.close();
    }

    @Override
    public String toString() {
        return label;
    }

    DeviceContext context() {
        return context;
    }

    /** @return the allocation of a buffer this device made, or null */
    Allocation allocationOf(MemorySegment buffer) {
        return buffers.get(buffer.address());
    }

    private SubmissionChain stream(MemorySegment handle) {
        checkOpen();
        return streams.get(handle);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException(this + " is closed");
        }
    }
}
