package dev.quiver.dlpack;

import java.lang.foreign.MemorySegment;

/**
 * The validity bitmap of an exported array, handed over beside its DLPack tensor (DLPack itself has no
 * notion of nulls). Bit {@code bitOffset + i}, least significant bit first, is set when element {@code i} of
 * the tensor (in C order) is valid.
 *
 * <p><b>Ownership.</b> Borrowed from the tensor: the memory stays valid until the tensor's deleter is called,
 * and never longer. It lives on the tensor's device; {@code pointer} is a device pointer or handle exactly
 * as the backend documents it (never offset by Quiver: the offset travels in {@code bitOffset}).
 *
 * @param pointer   the bitmap's device pointer or handle
 * @param bitOffset index of the bit of element 0
 * @param length    number of elements covered
 * @param nullCount number of null elements, or -1 if the producer did not count them
 */
public record ValidityBitmap(MemorySegment pointer, long bitOffset, long length, long nullCount) {}
