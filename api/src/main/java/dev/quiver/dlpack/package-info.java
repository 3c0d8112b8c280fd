/**
 * DLPack interchange: {@link dev.quiver.DeviceArray}s of fixed-width types as DLPack tensors
 * ({@code DLManagedTensorVersioned} and the legacy {@code DLManagedTensor}) and back, zero-copy, with the
 * array API's {@code stream} rules ({@link dev.quiver.dlpack.ArrayApiStream}) implemented once over the SPI.
 *
 * <p>Ownership moves with the tensor: an exported tensor belongs to its consumer, who calls its deleter
 * once, from any thread; an imported tensor belongs to the returned array, whose close calls the deleter
 * once, from any thread. Struct layouts are in {@link dev.quiver.abi} ({@code DLTensorLayout},
 * {@code DLManagedTensorLayout}, {@code DLManagedTensorVersionedLayout}). See {@link dev.quiver.dlpack.DLPack}
 * for every rule.
 */
package dev.quiver.dlpack;
