package dev.quiver.arrowjava;

import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.Devices;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Test double of a device that the host cannot address: an {@code EXT_DEV} backend whose "device memory" is
 * host memory behind the SPI, with events that are counters. It exists so that arrays on a device other than
 * the CPU can be made here, where no accelerator is available, to exercise the bridge's refusal and explicit
 * copy of such arrays; it backs no claim about real hardware.
 */
final class TestDoubleDevice implements DeviceProvider, BackendDevice {
    /** Every event the host waited on, in order. */
    final List<Long> hostWaits = new CopyOnWriteArrayList<>();
    private final Arena memory = Arena.ofAuto();
    private final Set<Long> live = ConcurrentHashMap.newKeySet();
    private final AtomicLong events = new AtomicLong(0x1000);

    /** @return a device registry with the CPU backend and this test double */
    Devices devices() {
        return Backends.devices(List.of(new dev.quiver.device.cpu.CpuProvider(), this), BackendSelection.all());
    }

    /**
     * @return how many allocations are live once the memory pool in front of this device gave back what it
     *         caches: what arrays and buffers still hold
     */
    int liveAllocations() {
        devices().get(dev.quiver.DeviceType.EXT_DEV, 0).memoryPool().trim();
        return live.size();
    }

    @Override
    public String name() {
        return "test-double";
    }

    @Override
    public int[] deviceTypes() {
        return new int[] {DeviceTypeCodes.EXT_DEV};
    }

    @Override
    public ProbeResult probe() {
        return ProbeResult.available(List.of(this));
    }

    @Override
    public int deviceType() {
        return DeviceTypeCodes.EXT_DEV;
    }

    @Override
    public long deviceId() {
        return 0;
    }

    @Override
    public long totalMemory() {
        return -1;
    }

    @Override
    public boolean hostAccessible() {
        return false;
    }

    /** Device memory is host memory of one arena that lives as long as the test double; frees are counted. */
    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        MemorySegment block = memory.allocate(Math.max(1, byteSize), alignment);
        live.add(block.address());
        return block;
    }

    @Override
    public void free(MemorySegment pointer) {
        live.remove(pointer.address());
    }

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        move(source, 0, destination, destinationOffset, source.byteSize());
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        move(source, sourceOffset, destination, 0, destination.byteSize());
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination, long destinationOffset,
                                 long byteCount, MemorySegment stream) {
        move(source, sourceOffset, destination, destinationOffset, byteCount);
    }

    private static void move(MemorySegment from, long fromOffset, MemorySegment to, long toOffset, long bytes) {
        MemorySegment.copy(from.reinterpret(fromOffset + bytes), fromOffset, to.reinterpret(toOffset + bytes), toOffset, bytes);
    }

    @Override
    public MemorySegment createStream() {
        return MemorySegment.ofAddress(7);
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        // copies are synchronous
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        // nothing was created
    }

    @Override
    public boolean supportsEvents() {
        return true;
    }

    @Override
    public MemorySegment createEvent() {
        return MemorySegment.ofAddress(events.incrementAndGet());
    }

    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        // work is already complete
    }

    @Override
    public void waitEvent(MemorySegment event) {
        hostWaits.add(event.address());
    }

    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        // copies are synchronous
    }

    @Override
    public boolean isEventComplete(MemorySegment event) {
        return true;
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        // counters hold nothing
    }
}
