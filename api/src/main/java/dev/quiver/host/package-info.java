/**
 * Host data without another library: {@link dev.quiver.host.HostVector} builds Arrow arrays from Java
 * values and exports them as CPU {@link dev.quiver.DeviceArray}s; {@link dev.quiver.host.ArrayReader} reads
 * the values of an array whose memory the host can address. Both respect slices (offset and length).
 */
package dev.quiver.host;
