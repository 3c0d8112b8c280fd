/**
 * The memory pools behind {@link dev.quiver.memory.MemoryPool}: the caching allocator of one device
 * ({@link dev.quiver.internal.pool.CachingPool}), its size classes and defaults, and
 * {@link dev.quiver.internal.pool.StreamOrder}, which runs releases once the work enqueued before them
 * completes. One pool and one stream order per device, owned by the device's checked view. Internal to Quiver:
 * not exported.
 */
package dev.quiver.internal.pool;
