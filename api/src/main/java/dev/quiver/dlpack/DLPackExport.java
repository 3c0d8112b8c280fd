package dev.quiver.dlpack;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * An exported DLPack tensor.
 *
 * <p><b>Ownership.</b> The consumer owns {@link #tensor()}: it calls the tensor's {@code deleter} exactly
 * once, from any thread, when it is done; the deleter gives back everything the export holds (the array's
 * buffers, any copy, the struct itself). Until then the memory stays valid. {@link #validity()} is
 * borrowed from the tensor and dies with it.
 *
 * @param tensor    a {@code DLManagedTensorVersioned*} or, for a legacy export, a {@code DLManagedTensor*}, as a
 *                  zero-length segment (a plain address in no arena, so that passing it to a downcall that
 *                  ends in the deleter never holds the tensor's memory open)
 * @param versioned true for {@code DLManagedTensorVersioned}, false for the legacy {@code DLManagedTensor}
 * @param copied    true if the data was copied for this export (the versioned struct then carries
 *                  {@code IS_COPIED})
 * @param validity  the array's validity bitmap, present only when the caller asked for it
 *                  ({@link DLPackExportOptions.Nulls#SEPARATE_VALIDITY}) and the array has one
 */
public record DLPackExport(MemorySegment tensor, boolean versioned, boolean copied, Optional<ValidityBitmap> validity) {}
