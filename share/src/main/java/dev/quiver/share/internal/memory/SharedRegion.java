package dev.quiver.share.internal.memory;

import dev.quiver.share.internal.posix.Memfd;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One memory file of this process, mapped shared and writable: the owner's side of shareable host memory.
 * Registered in {@link SharedRegions} while open, so that an exporter finds the region any host address
 * lies in.
 *
 * <p><b>Ownership.</b> Whoever created the region closes it exactly once (later closes do nothing): the
 * mapping is unmapped and the descriptor closed; peers that mapped it keep their pages.
 *
 * <p><b>Threading.</b> Any thread; {@link #fd()} is valid until {@link #close()}.
 */
public final class SharedRegion implements AutoCloseable {
    private final int fd;
    private final MemorySegment mapping;
    private final AtomicBoolean closed = new AtomicBoolean();

    private SharedRegion(int fd, MemorySegment mapping) {
        this.fd = fd;
        this.mapping = mapping;
    }

    /**
     * Creates and maps a memory file, sealed against shrinking.
     *
     * @param name a name for descriptor listings
     * @param size bytes, more than zero
     * @return the region, owned by the caller
     * @throws dev.quiver.share.internal.posix.SystemCallException if the kernel refuses
     */
    public static SharedRegion create(String name, long size) {
        if (size <= 0) {
            throw new IllegalArgumentException("a shared region needs at least one byte, not " + size);
        }
        int fd = Memfd.create(name, size);
        MemorySegment mapping;
        try {
            mapping = Memfd.mapShared(fd, size);
        } catch (RuntimeException e) {
            Memfd.close(fd);
            throw e;
        }
        SharedRegion region = new SharedRegion(fd, mapping);
        SharedRegions.add(region);
        return region;
    }

    /** {@return the descriptor of the memory file} */
    public int fd() {
        return fd;
    }

    /** {@return the mapping, valid until {@link #close()}} */
    public MemorySegment segment() {
        return mapping;
    }

    /** {@return the first address} */
    public long base() {
        return mapping.address();
    }

    /** {@return the size in bytes} */
    public long size() {
        return mapping.byteSize();
    }

    /**
     * {@return whether {@code [address, address + length)} lies inside this region}
     * @param address a host address
     * @param length  bytes
     */
    public boolean contains(long address, long length) {
        return address >= base() && length >= 0 && length <= size() - (address - base());
    }

    /** {@return whether the region was closed} */
    public boolean isClosed() {
        return closed.get();
    }

    /** Unmaps and closes the memory file; later calls do nothing. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            SharedRegions.remove(this);
            Memfd.unmap(mapping);
            Memfd.close(fd);
        }
    }

    @Override
    public String toString() {
        return "shared region of " + size() + " bytes (memfd " + fd + ")";
    }
}
