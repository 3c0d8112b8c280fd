package dev.quiver;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A stream of a device: an ordered queue of copies and event operations (a {@code CUstream}, an OpenCL
 * command queue, ...). Streams from {@link Device#createStream()} are owned by the caller, who closes them
 * once, from any thread; the default stream is borrowed and closing it does nothing. A stream is not meant
 * for concurrent use by several threads.
 */
public final class DeviceStream implements AutoCloseable {
    private final Device device;
    private final MemorySegment handle;
    private final boolean owned;
    private final AtomicBoolean closed = new AtomicBoolean();

    DeviceStream(Device device, MemorySegment handle, boolean owned) {
        this.device = device;
        this.handle = handle;
        this.owned = owned;
    }

    /** @return the device the stream belongs to */
    public Device device() {
        return device;
    }

    /** @return the native stream handle, as the backend documents it; borrowed */
    public MemorySegment handle() {
        checkOpen();
        return handle;
    }

    /** Blocks until all work enqueued on this stream is complete. */
    public void synchronize() {
        checkOpen();
        device.backend().synchronizeStream(handle);
    }

    /** Destroys an owned stream after its work completes; does nothing for the default stream or twice. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true) && owned) {
            device.backend().destroyStream(handle);
        }
    }

    private void checkOpen() {
        if (closed.get()) {
            throw new IllegalStateException("stream of " + device + " is closed");
        }
    }
}
