/**
 * FFM layouts of the Arrow C Data and C Device Data Interface structs and of DLPack's {@code DLTensor},
 * {@code DLManagedTensor} and {@code DLManagedTensorVersioned}, with explicit padding, and the byte offsets
 * of their fields. The layouts are checked against a C compiler's {@code sizeof} and
 * {@code offsetof} in the test suite.
 *
 * <p>These are plain descriptions: reading or writing a struct through them transfers no ownership. Who
 * owns a struct, and who may call its {@code release}, is defined by the Arrow C Data Interface and by
 * {@link dev.quiver.DeviceArray}.
 */
package dev.quiver.abi;
