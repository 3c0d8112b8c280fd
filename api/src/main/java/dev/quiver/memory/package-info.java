/**
 * Where device memory comes from: the pool every device allocates through ({@link dev.quiver.memory.MemoryPool},
 * from {@link dev.quiver.Device#memoryPool()}), its statistics ({@link dev.quiver.memory.PoolStats}), and the
 * interface through which an application brings its own allocator ({@link dev.quiver.memory.DeviceAllocator}).
 *
 * <p>Every allocation Quiver makes on a device (a {@link dev.quiver.Device#allocate(long)}, the buffers of a
 * {@link dev.quiver.Copies#toDevice copy}, host copies of device arrays) goes through that device's pool.
 * A freed block is kept and handed out again for a request of the same size class instead of going back to the
 * driver, which turns an allocation that costs a driver call (and, for fresh host memory, page faults) into a
 * table lookup. Blocks can also be freed in stream order ({@link dev.quiver.DeviceBuffer#closeAfter}): they
 * return to the pool once the work enqueued before them completes.
 *
 * {@snippet :
 * MemoryPool pool = device.memoryPool();
 * pool.setLimit(8L << 30);                 // at most 8 GiB held from the device, in use and cached
 * try (DeviceBuffer scratch = device.allocate(64 << 20)) {
 *     // ... use it ...
 * }                                         // back in the pool, not in the driver
 * PoolStats stats = pool.stats();
 * long returned = pool.trim();              // give every cached block back to the driver
 * }
 */
package dev.quiver.memory;
