package dev.quiver.device.metal;

import dev.quiver.device.ffm.VendorDevice;

import java.lang.foreign.MemorySegment;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The Metal device, allocating {@code MTLBuffer}s of one {@link MetalStorage} mode.
 *
 * <p><b>Handles.</b> Buffer pointers are what {@link MetalStorage} says: the {@code id<MTLBuffer>} for private
 * storage (opaque: offsets travel beside it), the {@code contents} address for shared storage. Streams are
 * {@code id<MTLCommandQueue>}s; {@link MemorySegment#NULL} is the device's default queue. Events are
 * {@code id<MTLSharedEvent>}s.
 *
 * <p><b>Events and {@code sync_event}.</b> For {@code ARROW_DEVICE_METAL} the Arrow C Device interface makes
 * {@code sync_event} an {@code MTLEvent*}: a pointer to the event object's id, not the id itself (so
 * {@link #eventFromSyncEvent} reads one pointer at that address; nanoarrow's Metal backend stores the id
 * directly, which consumers following the spec misread). A Metal event completes at a value, which the spec
 * leaves open; Quiver's convention: recording an event signals the next value of that event (1, 2, ...), and
 * an event Quiver did not record (a foreign producer's) is complete when its {@code signaledValue} reaches 1.
 * A host wait polls {@code signaledValue}; a stream wait encodes {@code encodeWaitForEvent:value:}.
 *
 * <p><b>Copies.</b> Private buffers are copied with blit encoders on the caller's queue, through shared
 * staging buffers for host memory (into staging at once, out of it when the queue is synchronised); shared
 * buffers are copied by the host after the queue is synchronised.
 *
 * <p><b>Native handles and adoption.</b> {@link #nativeHandles()} gives the {@code MTLDevice} and the default
 * {@code MTLCommandQueue}. {@link #adoptStream} takes an application's command queue of this device (checked
 * with {@code [queue device]}) and {@link #adoptEvent} its {@code MTLSharedEvent} (checked with
 * {@code [event device]}); neither is retained: the application keeps them alive until it forgets them, and
 * forgetting releases them only when asked.
 *
 * <p><b>Threading.</b> All methods may be called from any thread; queues synchronise their own use.
 */
final class MetalDevice extends VendorDevice implements dev.quiver.spi.DeviceEvents, dev.quiver.spi.NativeAdoption {
    private final ObjcRuntime objc;
    private final MemorySegment device;
    private final MetalStorage storage;
    private final MetalQueue defaultQueue;
    private final ConcurrentHashMap<Long, MetalQueue> queues = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, MemorySegment> sharedBuffers = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<Long, AtomicLong> signalled = new ConcurrentHashMap<>();
    private final Set<Long> adoptedQueues = ConcurrentHashMap.newKeySet();
    private final Set<Long> adoptedEvents = ConcurrentHashMap.newKeySet();
    private final Map<String, MemorySegment> handles;

    MetalDevice(ObjcRuntime objc, MemorySegment device, MetalStorage storage, String name, long workingSet) {
        super(storage.kind, 0, name, workingSet, 256, "Metal");
        this.objc = objc;
        this.device = device;
        this.storage = storage;
        this.defaultQueue = new MetalQueue(objc, required(objc.object(device, MetalMessage.newCommandQueue), "newCommandQueue"));
        queues.put(defaultQueue.handle().address(), defaultQueue);
        Map<String, MemorySegment> named = new LinkedHashMap<>();
        named.put("MTLDevice", device);
        named.put("MTLCommandQueue", defaultQueue.handle());
        this.handles = Collections.unmodifiableMap(named);
    }

    private static MemorySegment required(MemorySegment object, String what) {
        if (object.equals(MemorySegment.NULL)) {
            throw new MetalException("[MTLDevice " + what + "] returned nil");
        }
        return object;
    }

    @Override
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("storage", storage.toString());
        p.put("allocator", storage.kind.allocator());
        return p;
    }

    // ---- memory -------------------------------------------------------------------------------

    @Override
    protected MemorySegment allocateNative(long byteSize) {
        MemorySegment buffer = required(objc.newBuffer(device, byteSize, storage.options), "newBufferWithLength:options:");
        if (storage == MetalStorage.PRIVATE) {
            return buffer;
        }
        MemorySegment contents = objc.object(buffer, MetalMessage.contents);
        sharedBuffers.put(contents.address(), buffer);
        return contents;
    }

    @Override
    protected void freeNative(MemorySegment pointer) {
        MemorySegment buffer = storage == MetalStorage.PRIVATE ? pointer : sharedBuffers.remove(pointer.address());
        objc.send(buffer, MetalMessage.release);
    }

    // ---- copies -------------------------------------------------------------------------------

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        long size = source.byteSize();
        if (size == 0) {
            return;
        }
        MetalQueue queue = queue(stream);
        if (storage == MetalStorage.SHARED) {
            queue.synchronize();
            MemorySegment.copy(source, 0, destination.reinterpret(destinationOffset + size), destinationOffset, size);
            return;
        }
        MemorySegment staging = required(objc.newBuffer(device, source, size, MetalStorage.SHARED_OPTIONS), "newBufferWithBytes:length:options:");
        queue.copy(staging, 0, destination, destinationOffset, size, () -> objc.send(staging, MetalMessage.release));
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        long size = destination.byteSize();
        if (size == 0) {
            return;
        }
        MetalQueue queue = queue(stream);
        if (storage == MetalStorage.SHARED) {
            queue.synchronize();
            MemorySegment.copy(source.reinterpret(sourceOffset + size), sourceOffset, destination, 0, size);
            return;
        }
        MemorySegment staging = required(objc.newBuffer(device, size, MetalStorage.SHARED_OPTIONS), "newBufferWithLength:options:");
        // The queue may be synchronised from another thread: write through an unconfined view.
        MemorySegment target = MemorySegment.ofAddress(destination.address()).reinterpret(size);
        queue.copy(source, sourceOffset, staging, 0, size, () -> {
            target.copyFrom(objc.object(staging, MetalMessage.contents).reinterpret(size));
            objc.send(staging, MetalMessage.release);
        });
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        if (byteCount == 0) {
            return;
        }
        MetalQueue queue = queue(stream);
        if (storage == MetalStorage.SHARED) {
            queue.synchronize();
            MemorySegment.copy(source.reinterpret(sourceOffset + byteCount), sourceOffset,
                    destination.reinterpret(destinationOffset + byteCount), destinationOffset, byteCount);
            return;
        }
        queue.copy(source, sourceOffset, destination, destinationOffset, byteCount, null);
    }

    // ---- streams ------------------------------------------------------------------------------

    private MetalQueue queue(MemorySegment stream) {
        if (stream.equals(MemorySegment.NULL)) {
            return defaultQueue;
        }
        MetalQueue queue = queues.get(stream.address());
        if (queue == null) {
            throw new IllegalArgumentException("not a live command queue of " + this + ": 0x" + Long.toHexString(stream.address()));
        }
        return queue;
    }

    @Override
    public MemorySegment defaultStream() {
        return defaultQueue.handle();
    }

    @Override
    public MemorySegment createStream() {
        MetalQueue queue = new MetalQueue(objc, required(objc.object(device, MetalMessage.newCommandQueue), "newCommandQueue"));
        queues.put(queue.handle().address(), queue);
        return queue.handle();
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        queue(stream).synchronize();
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        MetalQueue queue = queue(stream);
        if (queue == defaultQueue) {
            throw new IllegalArgumentException("the default command queue of " + this + " cannot be destroyed");
        }
        queues.remove(stream.address());
        adoptedQueues.remove(stream.address());
        queue.synchronize();
        objc.send(queue.handle(), MetalMessage.release);
    }

    // ---- events -------------------------------------------------------------------------------

    @Override
    public MemorySegment createEvent() {
        MemorySegment event = required(objc.object(device, MetalMessage.newSharedEvent), "newSharedEvent");
        signalled.put(event.address(), new AtomicLong());
        return event;
    }

    @Override
    public void recordEvent(MemorySegment event, MemorySegment stream) {
        AtomicLong counter = adoptedEvents.contains(event.address())
                ? signalled.computeIfAbsent(event.address(), key -> new AtomicLong(objc.integer(event, MetalMessage.signaledValue)))
                : signalled.get(event.address());
        if (counter == null) {
            throw new IllegalArgumentException("only events made by " + this + " can be recorded");
        }
        long value = counter.incrementAndGet();
        queue(stream).submit(commandBuffer -> objc.encodeEvent(commandBuffer, MetalMessage.encodeSignalEvent_value, event, value), null);
    }

    /** @return the value the event completes at: its last recorded value, or 1 for a foreign event */
    private long target(MemorySegment event) {
        AtomicLong counter = signalled.get(event.address());
        return counter == null ? 1 : counter.get();
    }

    @Override
    public void waitEvent(MemorySegment event) {
        long target = target(event);
        long pause = 1_000;
        while (objc.integer(event, MetalMessage.signaledValue) < target) {
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, TimeUnit.MILLISECONDS.toNanos(1));
        }
    }

    @Override
    public void streamWaitEvent(MemorySegment stream, MemorySegment event) {
        long target = target(event);
        queue(stream).submit(commandBuffer -> objc.encodeEvent(commandBuffer, MetalMessage.encodeWaitForEvent_value, event, target), null);
    }

    @Override
    public boolean isEventComplete(MemorySegment event) {
        return objc.integer(event, MetalMessage.signaledValue) >= target(event);
    }

    @Override
    public void destroyEvent(MemorySegment event) {
        adoptedEvents.remove(event.address());
        signalled.remove(event.address());
        objc.send(event, MetalMessage.release);
    }

    // ---- native handles and adoption ----------------------------------------------------------

    /** @return {@code MTLDevice} and the default {@code MTLCommandQueue}, borrowed (never released by the caller) */
    @Override
    public Map<String, MemorySegment> nativeHandles() {
        return handles;
    }

    /**
     * @param nativeStream an {@code id<MTLCommandQueue>} of this device, a stream of it, or NULL (the default queue)
     * @return the same handle, now a stream of this device
     * @throws IllegalArgumentException if it is a queue of another device
     */
    @Override
    public MemorySegment adoptStream(MemorySegment nativeStream) {
        if (nativeStream.equals(MemorySegment.NULL) || queues.containsKey(nativeStream.address())) {
            return nativeStream;
        }
        requireOfThisDevice(nativeStream, "MTLCommandQueue");
        queues.putIfAbsent(nativeStream.address(), new MetalQueue(objc, nativeStream));
        adoptedQueues.add(nativeStream.address());
        return nativeStream;
    }

    /** Waits for an adopted queue's work and stops using it; releases it if asked (a queue this device made: {@link #destroyStream}). */
    @Override
    public void forgetStream(MemorySegment stream, boolean destroy) {
        MetalQueue queue = queue(stream);
        if (!adoptedQueues.remove(stream.address())) {
            if (destroy) {
                destroyStream(stream);
            }
            return;
        }
        queues.remove(stream.address());
        queue.synchronize();
        if (destroy) {
            objc.send(stream, MetalMessage.release);
        }
    }

    /**
     * @param nativeEvent an {@code id<MTLSharedEvent>} of this device
     * @return the same handle; until Quiver records it, it counts as complete at value 1, like a foreign
     *         producer's event; recording it signals the value after its current {@code signaledValue}
     * @throws IllegalArgumentException if it is nil or an event of another device
     */
    @Override
    public MemorySegment adoptEvent(MemorySegment nativeEvent) {
        if (nativeEvent.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("MTLSharedEvent is nil");
        }
        if (!signalled.containsKey(nativeEvent.address())) {
            requireOfThisDevice(nativeEvent, "MTLSharedEvent");
            adoptedEvents.add(nativeEvent.address());
        }
        return nativeEvent;
    }

    /** Stops using an adopted event; releases it if asked (an event this device made: {@link #destroyEvent}). */
    @Override
    public void forgetEvent(MemorySegment event, boolean destroy) {
        if (destroy) {
            destroyEvent(event);
        } else if (adoptedEvents.remove(event.address())) {
            signalled.remove(event.address());
        }
    }

    private void requireOfThisDevice(MemorySegment object, String type) {
        MemorySegment owner = objc.object(object, MetalMessage.device);
        if (owner.address() != device.address()) {
            throw new IllegalArgumentException(type + " 0x" + Long.toHexString(object.address()) + " belongs to MTLDevice 0x"
                    + Long.toHexString(owner.address()) + ", not to " + this);
        }
    }
}
