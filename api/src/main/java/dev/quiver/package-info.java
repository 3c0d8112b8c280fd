/**
 * Quiver: Apache Arrow data on any device, shared zero-copy with native libraries and other runtimes through
 * the Arrow C Device Data Interface.
 *
 * <p>{@link dev.quiver.Devices} finds backends (plugins on the class path or module path) and their
 * {@link dev.quiver.Device}s; {@link dev.quiver.DeviceArray} owns one {@code ArrowDeviceArray} and its
 * schema; {@link dev.quiver.Interchange} imports arrays from C and exports them to C by move (the C Device
 * and plain C Data interfaces); {@link dev.quiver.SyncEvent} and
 * {@link dev.quiver.DeviceStream} make synchronisation explicit; {@link dev.quiver.DeviceType} names every
 * {@code ARROW_DEVICE_*} code, known or not.
 *
 * <p>For libraries that compute on device arrays: {@link dev.quiver.DeviceArray#buffer(int)} (borrowed
 * {@link dev.quiver.DeviceBuffer} views), {@link dev.quiver.DeviceArray#slice}, {@link dev.quiver.DeviceArray#child(int)}
 * and {@link dev.quiver.DeviceArray#dictionary()} (zero-copy arrays that keep their parent alive),
 * {@link dev.quiver.DeviceArray#retain()} (keep-alive references), {@link dev.quiver.Device#allocate(long)}
 * (owned buffers), {@link dev.quiver.ArrayBuilder} (arrays from buffers), {@link dev.quiver.Device#nativeHandles()}
 * (the vendor API's objects), {@link dev.quiver.Device#adoptStream} and {@link dev.quiver.Device#adoptEvent}
 * (native streams and events made elsewhere), {@link dev.quiver.DeviceStream#recordEvent()} and
 * {@link dev.quiver.DeviceRanking} (where to compute).
 *
 * <p>Ownership follows the C Data Interface: one owner at a time, release exactly once from any thread,
 * moves leave the source released. Errors in imported structs raise
 * {@link dev.quiver.InvalidArrowException} naming the field path, after the foreign release ran.
 */
package dev.quiver;
