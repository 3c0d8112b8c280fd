/**
 * Dense tensors as DLPack and the CUDA Array Interface describe them: element types, shapes and strides,
 * bit packing of booleans, and the import of a tensor as an Arrow array (zero-copy where Arrow's layout
 * allows). Knows nothing of the public array type: the caller says what an imported struct becomes. Not
 * exported from the module.
 */
package dev.quiver.internal.tensor;
