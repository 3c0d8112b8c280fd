/**
 * Host data without another library. {@link dev.quiver.host.HostVector} builds Arrow arrays of every type
 * from Java values (boxed, in its Java mapping) and exports them as CPU {@link dev.quiver.DeviceArray}s;
 * {@link dev.quiver.host.FixedWidthVectors} and {@link dev.quiver.host.BinaryVectors} build them without
 * boxing from primitive arrays, with nulls given as a {@link dev.quiver.host.Validity};
 * {@link dev.quiver.host.ArrayReader} reads the values of an array whose memory the host can address,
 * boxed, unboxed or in bulk into primitive arrays. Indexes are logical everywhere: element 0 is the first
 * element of an array as sliced, for struct members too.
 *
 * <p>Vectors own no native memory and are immutable (those from {@code FixedWidthVectors} read the array
 * they wrap, which must not change while they are in use); each {@code toDeviceArray} call makes a device
 * array the caller owns and must close. A reader borrows its device array and is valid while that array is
 * open; any thread may read through it.
 */
package dev.quiver.host;
