/**
 * The CUDA Array Interface (version 3): {@link dev.quiver.DeviceArray}s described as
 * {@code Map<String, Object>} descriptors with the specification's keys, and descriptors imported as
 * DeviceArrays, zero-copy where Arrow's layout allows. A descriptor keeps nothing alive: the described
 * array, and the stream it names, must outlive its use. See
 * {@link dev.quiver.cai.CudaArrayInterface} for every rule, including the {@code typestr} of each primitive
 * type.
 */
package dev.quiver.cai;
