package dev.quiver.device.vulkan;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.PinnedHostMemory;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * A device the {@link VulkanSurvey} found, listed before it is opened: it describes itself from what the
 * survey read (name, memory, the properties {@link VulkanDevice} would give, no handles), and the first call
 * that needs the device runs the provider's full probe ({@link VulkanProbe}) and hands every call on to the
 * {@link VulkanDevice} with the same id, as that device answers it. So listing the devices, and asking
 * them for their {@link #ipcMechanism()}, loads neither LWJGL nor a logical device. If the full probe cannot open the device, every such call throws a
 * {@link DeviceException} with the probe's reasons. Thread-safe.
 */
final class DeferredVulkanDevice implements BackendDevice, PinnedHostMemory, dev.quiver.spi.DeviceEvents,
        dev.quiver.spi.IpcMemory, dev.quiver.spi.NativeAdoption {
    private final PhysicalDeviceInfo info;
    private final boolean sharesOpaqueFd;
    private final long id;
    private volatile VulkanDevice opened;

    /**
     * Lists a surveyed device without opening it.
     *
     * @param surveyed what the survey read of the device
     * @param id       its index among the instance's physical devices
     */
    DeferredVulkanDevice(SurveyedDevice surveyed, long id) {
        this.info = surveyed.info();
        this.sharesOpaqueFd = surveyed.sharesOpaqueFd();
        this.id = id;
    }

    /** @return from the physical device's {@code VkPhysicalDeviceType} */
    @Override
    public dev.quiver.spi.HardwareKind hardwareKind() {
        return VulkanLibrary.kindOf(info.deviceType());
    }

    /** @return the Vulkan loader LWJGL loaded */
    @Override
    public java.util.Optional<dev.quiver.spi.LoadedLibrary> vendorLibrary() {
        return VulkanLibrary.loaded();
    }

    /**
     * @return the opened device, opening it now if nobody did yet
     * @throws DeviceException if the full probe does not open it
     */
    VulkanDevice device() {
        VulkanDevice device = opened;
        if (device == null) {
            device = open();
            opened = device;
        }
        return device;
    }

    /** @return whether a call has opened the device */
    boolean isOpened() {
        return opened != null;
    }

    private VulkanDevice open() {
        ProbeResult probed = VulkanProbe.result();
        if (probed instanceof ProbeResult.Available available) {
            for (BackendDevice device : available.devices()) {
                if (device instanceof VulkanDevice vulkan && vulkan.deviceId() == id) {
                    return vulkan;
                }
            }
            throw new DeviceException(this + " was listed but the probe that opens the devices did not open it");
        }
        throw new DeviceException(this + " was listed but cannot be opened: " + String.join("; ", ((ProbeResult.Unavailable) probed).reasons()));
    }

    @Override
    public int deviceType() {
        return DeviceTypeCodes.VULKAN;
    }

    @Override
    public long deviceId() {
        return id;
    }

    @Override
    public String name() {
        return info.name();
    }

    @Override
    public long totalMemory() {
        return info.deviceLocalBytes();
    }

    @Override
    public boolean hostAccessible() {
        return false;
    }

    @Override
    public Map<String, String> properties() {
        return info.describe(false, false);
    }

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        return device().allocate(byteSize, alignment);
    }

    @Override
    public void free(MemorySegment pointer) {
        device().free(pointer);
    }

    @Override
    public boolean pinsHostMemory() {
        return info.deviceType() == org.lwjgl.vulkan.VK10.VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU;
    }

    @Override
    public MemorySegment allocateHost(long byteSize, long alignment) {
        return device().allocateHost(byteSize, alignment);
    }

    @Override
    public void freeHost(MemorySegment memory) {
        device().freeHost(memory);
    }

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        device().copyFromHost(source, destination, destinationOffset, stream);
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        device().copyToHost(source, sourceOffset, destination, stream);
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        device().copyWithinDevice(source, sourceOffset, destination, destinationOffset, byteCount, stream);
    }

    /** @return {@link MemorySegment#NULL}, as {@link VulkanDevice#defaultStream()} does */
    @Override
    public MemorySegment defaultStream() {
        return MemorySegment.NULL;
    }

    @Override
    public MemorySegment createStream() {
        return device().createStream();
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        device().synchronizeStream(stream);
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        device().destroyStream(stream);
    }

    @Override
    public MemorySegment createEvent() {
        return device().createEvent();
    }

    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        device().recordEvent(event, stream);
    }

    @Override
    public void waitEvent(MemorySegment event) {
        device().waitEvent(event);
    }

    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        device().streamWaitEvent(stream, event);
    }

    @Override
    public boolean isEventComplete(MemorySegment event) {
        return device().isEventComplete(event);
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        device().destroyEvent(event);
    }

    @Override
    public MemorySegment eventFromSyncEvent(MemorySegment syncEvent) {
        return device().eventFromSyncEvent(syncEvent);
    }

    @Override
    public Map<String, MemorySegment> nativeHandles() {
        return device().nativeHandles();
    }

    @Override
    public MemorySegment adoptStream(MemorySegment nativeStream) {
        return device().adoptStream(nativeStream);
    }

    @Override
    public void forgetStream(MemorySegment stream, boolean destroy) {
        device().forgetStream(stream, destroy);
    }

    @Override
    public MemorySegment adoptEvent(MemorySegment nativeEvent) {
        return device().adoptEvent(nativeEvent);
    }

    @Override
    public void forgetEvent(MemorySegment event, boolean destroy) {
        device().forgetEvent(event, destroy);
    }

    /**
     * Answers from the survey, without opening the device: what {@link VulkanDevice#ipcMechanism()} of the
     * device it opens answers, since both ask the physical device the same ({@link ExternalMemoryFd#supported}).
     *
     * @return {@link dev.quiver.spi.IpcMechanism#VULKAN_FD} where the survey found the device sharing memory as
     *         opaque file descriptors, else {@link dev.quiver.spi.IpcMechanism#NONE}
     */
    @Override
    public dev.quiver.spi.IpcMechanism ipcMechanism() {
        return sharesOpaqueFd ? dev.quiver.spi.IpcMechanism.VULKAN_FD : dev.quiver.spi.IpcMechanism.NONE;
    }

    @Override
    public dev.quiver.spi.IpcMemoryHandle exportMemory(MemorySegment pointer, long offset) {
        return device().exportMemory(pointer, offset);
    }

    @Override
    public dev.quiver.spi.ImportedMemory openMemory(dev.quiver.spi.IpcMemoryHandle handle) {
        return device().openMemory(handle);
    }

    /** {@return the capability; {@link dev.quiver.spi.IpcMemory} only where {@link #ipcMechanism()} is not NONE} */
    @Override
    public <C extends dev.quiver.spi.DeviceCapability> java.util.Optional<C> capability(Class<C> kind) {
        if (kind == dev.quiver.spi.IpcMemory.class && ipcMechanism() == dev.quiver.spi.IpcMechanism.NONE) {
            return java.util.Optional.empty();
        }
        return BackendDevice.super.capability(kind);
    }

    @Override
    public String toString() {
        return "VULKAN:" + id + " " + name();
    }
}
