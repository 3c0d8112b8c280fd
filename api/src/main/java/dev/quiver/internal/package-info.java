/**
 * Host memory of this JVM as a backend, and moving bytes between any device and the host for the tensor
 * protocols. Its subpackages hold the rest of the implementation, one job each: {@code abi} (the C ABI, the
 * only place making restricted FFM calls), {@code validate} (checking imported structs), {@code copy}
 * (copying whole arrays between devices), {@code tensor} (dense tensors of DLPack and the CUDA Array
 * Interface) and {@code bridge} (the public types as the protocol packages need them). Not exported from the
 * module; nothing here is API.
 */
package dev.quiver.internal;
