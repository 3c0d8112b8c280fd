package dev.quiver.spi;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Device memory of another process, opened on this device from an {@link IpcMemoryHandle}: a pointer that
 * this device's methods accept, and the way to close it. The pointer is the exported one (the opened
 * allocation's start plus the handle's offset); it stays valid until {@link #close()}.
 *
 * <p><b>Ownership.</b> The opener owns it and closes it exactly once, after all work using the memory
 * completed; later calls to {@code close} do nothing. Closing never frees the exporter's allocation. Never
 * pass the pointer to {@link BackendDevice#free}.
 *
 * <p><b>Threading.</b> {@code close} may be called from any thread; concurrent calls close once.
 */
public final class ImportedMemory implements AutoCloseable {
    /** Closes what the driver opened. */
    @FunctionalInterface
    public interface Closer {
        /**
         * Closes the opened allocation ({@code cuIpcCloseMemHandle}, ...).
         *
         * @param allocation the opened allocation's start, as the driver returned it
         */
        void close(MemorySegment allocation);
    }

    private final MemorySegment allocation;
    private final MemorySegment pointer;
    private final long byteSize;
    private final Closer closer;
    private final AtomicBoolean closed = new AtomicBoolean();

    /**
     * Wraps what a backend opened.
     *
     * @param allocation the opened allocation's start, as the driver returned it
     * @param pointer    the exported pointer on this device: the allocation plus the handle's offset
     * @param byteSize   bytes from {@code pointer} to the end of the allocation, or -1 if unknown
     * @param closer     closes the allocation; called once
     */
    public ImportedMemory(MemorySegment allocation, MemorySegment pointer, long byteSize, Closer closer) {
        this.allocation = Objects.requireNonNull(allocation, "allocation");
        this.pointer = Objects.requireNonNull(pointer, "pointer");
        this.byteSize = byteSize;
        this.closer = Objects.requireNonNull(closer, "closer");
    }

    /** {@return the exported pointer, usable with this device's methods until {@link #close()}} */
    public MemorySegment pointer() {
        return pointer;
    }

    /** {@return the bytes from {@link #pointer()} to the end of the opened allocation, or -1 if unknown} */
    public long byteSize() {
        return byteSize;
    }

    /** {@return whether {@link #close()} was called} */
    public boolean isClosed() {
        return closed.get();
    }

    /**
     * Closes the opened allocation, the first time only.
     *
     * @throws DeviceException if the driver fails to close it
     */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            closer.close(allocation);
        }
    }

    @Override
    public String toString() {
        return "ImportedMemory[0x" + Long.toHexString(pointer.address()) + ", " + byteSize + " bytes" + (isClosed() ? ", closed]" : "]");
    }
}
