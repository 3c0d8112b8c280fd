package dev.quiver.internal.pool;

import dev.quiver.internal.events.Recorder;
import dev.quiver.internal.events.PoolGrowEvent;
import dev.quiver.internal.events.PoolTrimEvent;
import dev.quiver.memory.DeviceAllocator;
import dev.quiver.memory.MemoryPool;
import dev.quiver.memory.PoolStats;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The caching allocator in front of one device's {@link DeviceAllocator}: see {@link MemoryPool} for what it
 * promises. Blocks are kept per size class in LIFO order (the block freed last is warm in caches and TLBs);
 * the blocks handed out are found by address when they come back.
 *
 * <p><b>Threading.</b> Any thread. The tables are guarded by this pool's monitor, held for table updates only:
 * allocator calls (which may take milliseconds) run outside it.
 */
public final class CachingPool implements MemoryPool {
    private final String label;
    private final DeviceAllocator own;
    private final boolean hostAccessible;
    private volatile DeviceAllocator allocator;
    /** What a trim also asks of the device: to let go of what it caches besides memory. */
    private final Runnable onTrim;
    /** Whether blocks are host memory a device's driver made, registered in {@link PinnedRanges} while they live. */
    private final boolean driverHostMemory;

    private final Map<Long, ArrayDeque<Block>> cached = new HashMap<>();
    private final Map<Long, Block> handedOut = new HashMap<>();
    private long inUse;
    private long cachedBytes;
    private long pending;
    private long highWater;
    private long limit;
    private long cacheLimit;
    private long requests;
    private long hits;
    private long allocatorCalls;
    private long trimmed;

    /**
     * One block from an allocator.
     *
     * @param pointer   what the allocator returned
     * @param size      its size in bytes (the size class, or the exact request where it is not cached)
     * @param from      the allocator that made it, and frees it
     * @param alignment the alignment it was asked with
     * @param cacheable whether it may be cached when freed
     */
    private record Block(MemorySegment pointer, long size, long alignment, DeviceAllocator from, boolean cacheable) {}

    /**
     * @param backend the device's backend, without the API's checks
     * @param label   how messages name the device
     */
    public CachingPool(BackendDevice backend, String label) {
        // host memory of a device (CUDA_HOST, ROCM_HOST, managed memory) is the driver's own: never staged
        this(new BackendAllocator(backend), backend.hostAccessible(), backend.totalMemory(), label, backend::releaseCaches,
                backend.hostAccessible() && backend.deviceType() != dev.quiver.spi.DeviceTypeCodes.CPU);
    }

    /**
     * @param own            the allocator new blocks come from unless an application brings another
     * @param hostAccessible whether its blocks are host memory (segments the pool hands out sized)
     * @param totalMemory    the memory behind it in bytes, -1 if unknown, for the default cache limit
     * @param label          how messages name the device
     */
    public CachingPool(DeviceAllocator own, boolean hostAccessible, long totalMemory, String label) {
        this(own, hostAccessible, totalMemory, label, () -> { }, false);
    }

    private CachingPool(DeviceAllocator own, boolean hostAccessible, long totalMemory, String label, Runnable onTrim,
                        boolean driverHostMemory) {
        this.onTrim = onTrim;
        this.driverHostMemory = driverHostMemory;
        this.label = Objects.requireNonNull(label);
        this.own = Objects.requireNonNull(own);
        this.allocator = own;
        this.hostAccessible = hostAccessible;
        this.limit = PoolDefaults.limit();
        this.cacheLimit = PoolDefaults.cacheLimit(totalMemory);
    }

    /**
     * Allocates from the cache, or from the allocator.
     *
     * @param byteSize  bytes, 0 or more
     * @param alignment a power of two
     * @return the pointer; for host-accessible memory a segment of {@code byteSize} bytes
     * @throws DeviceException if the limit or the allocator refuses
     */
    public MemorySegment allocate(long byteSize, long alignment) {
        boolean cacheable = byteSize > 0;
        long size = cacheable ? SizeClasses.of(byteSize) : byteSize;
        synchronized (this) {
            requests++;
            if (cacheable) {
                ArrayDeque<Block> blocks = cached.get(size);
                Block block = blocks == null ? null : blocks.peekLast();
                if (block != null && block.alignment >= alignment) {
                    blocks.pollLast();
                    hits++;
                    cachedBytes -= size;
                    inUse += size;
                    handedOut.put(block.pointer.address(), block);
                    return sized(block.pointer, byteSize);
                }
            }
        }
        Block block = fresh(size, alignment, cacheable);
        return sized(block.pointer, byteSize);
    }

    /**
     * Takes a block back: into the cache while it has room, else back to its allocator.
     *
     * @param pointer what {@link #allocate} returned
     * @return false if the pool did not hand out {@code pointer} (the caller frees it as foreign memory)
     */
    public boolean free(MemorySegment pointer) {
        Block block;
        List<Block> out;
        synchronized (this) {
            block = handedOut.remove(pointer.address());
            if (block == null) {
                return false;
            }
            inUse -= block.size;
            out = keep(block);
        }
        release(out, out.size() > 1 || out.size() == 1 && out.getFirst() != block);
        return true;
    }

    /**
     * Takes a block back once the work enqueued on {@code stream} so far completes: it counts as pending until
     * then, and is neither reused nor freed.
     *
     * @param pointer what {@link #allocate} returned
     * @param order   the stream order to wait in
     * @return false if the pool did not hand out {@code pointer}
     */
    public boolean freeAfter(MemorySegment pointer, StreamOrder.Point order) {
        Block block;
        synchronized (this) {
            block = handedOut.remove(pointer.address());
            if (block == null) {
                return false;
            }
            inUse -= block.size;
            pending += block.size;
        }
        order.then(() -> {
            List<Block> out;
            synchronized (this) {
                pending -= block.size;
                out = keep(block);
            }
            release(out, out.size() > 1 || out.size() == 1 && out.getFirst() != block);
        });
        return true;
    }

    /** @return true if {@code pointer} is a block this pool handed out and that is not freed yet */
    public synchronized boolean handedOut(MemorySegment pointer) {
        return handedOut.containsKey(pointer.address());
    }

    @Override
    public synchronized PoolStats stats() {
        return new PoolStats(inUse, cachedBytes, pending, highWater, limit, cacheLimit, requests, hits, allocatorCalls,
                trimmed, allocator.name());
    }

    @Override
    public synchronized long limit() {
        return limit;
    }

    @Override
    public void setLimit(long bytes) {
        changeLimits("limit", bytes, () -> {
            limit = bytes;
            return held() - bytes;
        });
    }

    @Override
    public synchronized long cacheLimit() {
        return cacheLimit;
    }

    @Override
    public void setCacheLimit(long bytes) {
        changeLimits("cache limit", bytes, () -> {
            cacheLimit = bytes;
            return cachedBytes - bytes;
        });
    }

    /** Applies a limit under the monitor; the change returns how many cached bytes must go, which go outside it. */
    private void changeLimits(String name, long bytes, java.util.function.LongSupplier change) {
        if (bytes < 0) {
            throw new IllegalArgumentException(name + " is negative: " + bytes);
        }
        List<Block> freed;
        synchronized (this) {
            freed = evict(change.getAsLong());
        }
        release(freed, true);
    }

    @Override
    public long trim() {
        List<Block> freed;
        synchronized (this) {
            freed = evict(Long.MAX_VALUE);
        }
        try {
            return release(freed, true);
        } finally {
            onTrim.run();
        }
    }

    @Override
    public void useAllocator(DeviceAllocator allocator) {
        DeviceAllocator next = allocator == null ? own : allocator;
        List<Block> freed;
        synchronized (this) {
            if (this.allocator == next) {
                return;
            }
            this.allocator = next;
            freed = evict(Long.MAX_VALUE);
        }
        release(freed, true);
    }

    // ---- inside -----------------------------------------------------------------------------------

    /** Asks the allocator for a block, within the limit, trimming the cache and retrying once if refused. */
    private Block fresh(long size, long alignment, boolean cacheable) {
        DeviceAllocator from = reserve(size);
        PoolGrowEvent event = Recorder.poolGrow();
        MemorySegment pointer;
        try {
            pointer = allocateOnce(from, size, alignment, cacheable);
        } catch (RuntimeException first) {
            synchronized (this) {
                inUse -= size;
            }
            if (trim() == 0) {
                throw first;
            }
            synchronized (this) {
                inUse += size;
            }
            try {
                pointer = allocateOnce(from, size, alignment, cacheable);
            } catch (RuntimeException second) {
                synchronized (this) {
                    inUse -= size;
                }
                second.addSuppressed(first);
                throw second;
            }
        }
        Block block = new Block(pointer, size, alignment, from, cacheable);
        if (driverHostMemory && size > 0) {
            PinnedRanges.add(pointer.asSlice(0, size));
        }
        synchronized (this) {
            allocatorCalls++;
            handedOut.put(pointer.address(), block);
            highWater = Math.max(highWater, held());
        }
        if (event != null) {
            event.finish(label, size, held());
        }
        return block;
    }

    private MemorySegment allocateOnce(DeviceAllocator from, long size, long alignment, boolean cacheable) {
        MemorySegment pointer = from.allocate(size, alignment);
        if (pointer == null || pointer.equals(MemorySegment.NULL) && size > 0) {
            throw new DeviceException("the allocator \"" + from.name() + "\" of " + label + " returned NULL for " + size + " bytes");
        }
        if (hostAccessible && size > 0 && pointer.byteSize() < size) {
            throw new DeviceException("the allocator \"" + from.name() + "\" of " + label + " returned a segment of "
                    + pointer.byteSize() + " bytes for " + size + " bytes of host-accessible memory");
        }
        return pointer;
    }

    /** Counts {@code size} bytes as in use within the limit, evicting cached blocks to make room. */
    private DeviceAllocator reserve(long size) {
        List<Block> freed;
        DeviceAllocator from;
        synchronized (this) {
            freed = evict(held() + size - limit);
            if (held() - bytesOf(freed) + size > limit) {
                cachedBytes += bytesOf(freed);
                freed.forEach(this::cache);
                throw new DeviceException("the memory pool of " + label + " would hold " + (held() + size)
                        + " bytes, over its limit of " + limit + " (" + inUse + " in use, " + pending
                        + " pending release); free memory or raise MemoryPool.setLimit", DeviceException.Kind.OUT_OF_MEMORY);
            }
            inUse += size;   // the high-water mark rises once the allocator gave the memory, not here
            from = allocator;
        }
        release(freed, true);
        return from;
    }

    /**
     * Caches a freed block if it may be, making room by evicting blocks freed earlier: the block freed last is
     * the likeliest to be asked for next. The caller holds the monitor.
     *
     * @return the blocks to give back to their allocators, outside the monitor: the block itself where it may
     *         not be cached or is larger than the cache limit, else the blocks evicted for it (often none)
     */
    private List<Block> keep(Block block) {
        if (!block.cacheable || block.from != allocator || block.size > cacheLimit) {
            return List.of(block);
        }
        List<Block> evicted = evict(cachedBytes + block.size - cacheLimit);
        cache(block);
        cachedBytes += block.size;
        return evicted;
    }

    private void cache(Block block) {
        cached.computeIfAbsent(block.size, s -> new ArrayDeque<>()).addLast(block);
    }

    /** Takes cached blocks out, oldest of each class first, until at least {@code bytes} are out; holds the monitor. */
    private List<Block> evict(long bytes) {
        List<Block> out = new ArrayList<>();
        long taken = 0;
        Iterator<ArrayDeque<Block>> classes = cached.values().iterator();
        while (taken < bytes && classes.hasNext()) {
            ArrayDeque<Block> blocks = classes.next();
            while (taken < bytes && !blocks.isEmpty()) {
                Block block = blocks.pollFirst();
                out.add(block);
                taken += block.size;
            }
            if (blocks.isEmpty()) {
                classes.remove();
            }
        }
        cachedBytes -= taken;
        return out;
    }

    /** Frees blocks through their allocators, outside the monitor; returns their bytes. */
    private long release(List<Block> blocks, boolean counted) {
        if (blocks.isEmpty()) {
            return 0;
        }
        PoolTrimEvent event = counted ? Recorder.poolTrim() : null;
        long bytes = 0;
        RuntimeException failure = null;
        for (Block block : blocks) {
            try {
                if (driverHostMemory && block.size > 0) {
                    PinnedRanges.remove(block.pointer);
                }
                block.from.free(block.pointer);
                bytes += block.size;
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (counted) {
            synchronized (this) {
                trimmed += bytes;
            }
        }
        if (event != null) {
            event.finish(label, bytes, held());
        }
        if (failure != null) {
            throw failure;
        }
        return bytes;
    }

    private synchronized long held() {
        return inUse + cachedBytes + pending;
    }

    private static long bytesOf(List<Block> blocks) {
        long bytes = 0;
        for (Block block : blocks) {
            bytes += block.size;
        }
        return bytes;
    }

    /** A segment of exactly {@code byteSize} bytes for host memory; device handles as they are. */
    private MemorySegment sized(MemorySegment pointer, long byteSize) {
        return hostAccessible && pointer.byteSize() > byteSize ? pointer.asSlice(0, byteSize) : pointer;
    }

    @Override
    public String toString() {
        return "MemoryPool of " + label + " " + stats();
    }
}
