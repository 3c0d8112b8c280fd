package dev.quiver.arrowjava;

import dev.quiver.InvalidArrowException;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.BaseFixedWidthVector;
import org.apache.arrow.vector.BaseLargeVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthVector;
import org.apache.arrow.vector.BaseVariableWidthViewVector;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.BaseRepeatedValueVector;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.LargeListViewVector;
import org.apache.arrow.vector.complex.ListViewVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;

import java.lang.foreign.MemorySegment;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * The true sizes of the buffers a batch was read into: every buffer Arrow Java loads a record batch of an
 * IPC file, stream or Flight message (and its dictionaries) into is a slice of the message body as long as
 * the message said and the body held (or a buffer Arrow Java allocated to that size), so its capacity is what
 * may be read from its address, whatever the batch's offsets claim. The C export of such a batch points at
 * these same buffers; what the validator asks about an address is
 * answered from here ({@link #capacity}), -1 for an address that is no received buffer (the few small
 * buffers Arrow Java's export makes itself: a single offset for an empty offsets buffer, the sizes of view
 * buffers, both sized by Arrow Java from the buffers it holds).
 *
 * <p>An offsets buffer that arrived empty for a non-empty array is refused here: Arrow Java's export would
 * replace it with a single zero offset, which the array's length would then run past.
 *
 * <p>Made on the reading thread for one batch and dropped after its check; immutable once made.
 */
final class ReadBuffers {
    private final Map<Long, Long> capacities = new HashMap<>();

    private ReadBuffers() {}

    /**
     * @param root         the batch as Arrow Java loaded it
     * @param dictionaries the dictionaries it arrived with (may be null)
     * @return the sizes of every buffer of the batch and its dictionaries
     * @throws InvalidArrowException if an offsets buffer arrived empty for a non-empty array
     */
    static ReadBuffers of(VectorSchemaRoot root, DictionaryProvider dictionaries) {
        ReadBuffers buffers = new ReadBuffers();
        List<FieldVector> vectors = root.getFieldVectors();
        for (int k = 0; k < vectors.size(); k++) {
            buffers.collect(vectors.get(k), "children[" + k + "]");
        }
        if (dictionaries != null) {
            for (long id : dictionaries.getDictionaryIds()) {
                buffers.collect(dictionaries.lookup(id).getVector(), "dictionary " + id);
            }
        }
        return buffers;
    }

    /**
     * @param pointer a buffer pointer of the exported batch
     * @return the size in bytes of the received buffer starting there, or -1 if none does
     */
    long capacity(MemorySegment pointer) {
        Long known = capacities.get(pointer.address());
        return known == null ? -1 : known;
    }

    private void collect(FieldVector vector, String path) {
        if (vector instanceof ExtensionTypeVector<?> extension) {
            collect(extension.getUnderlyingVector(), path);
            return;
        }
        ArrowBuf offsets = null;
        switch (vector) {
            // the common kinds by their own accessors; the others through the generic ones, which throw where
            // a kind has no such buffer
            case BaseFixedWidthVector fixed -> {
                add(fixed.getValidityBuffer());
                add(fixed.getDataBuffer());
            }
            case BaseVariableWidthVector variable -> {
                add(variable.getValidityBuffer());
                offsets = variable.getOffsetBuffer();
                add(variable.getDataBuffer());
            }
            case BaseLargeVariableWidthVector variable -> {
                add(variable.getValidityBuffer());
                offsets = variable.getOffsetBuffer();
                add(variable.getDataBuffer());
            }
            default -> {
                add(optional(vector::getValidityBuffer));
                offsets = optional(vector::getOffsetBuffer);
                add(optional(vector::getDataBuffer));
            }
        }
        add(offsets);
        switch (vector) {
            case BaseVariableWidthViewVector views -> views.getDataBuffers().forEach(this::add);
            case ListViewVector list -> add(list.getSizeBuffer());
            case LargeListViewVector list -> add(list.getSizeBuffer());
            case UnionVector union -> add(union.getTypeBuffer());
            case DenseUnionVector union -> add(union.getTypeBuffer());
            default -> { }
        }
        boolean hasOffsets = vector instanceof BaseVariableWidthVector || vector instanceof BaseLargeVariableWidthVector
                || vector instanceof BaseRepeatedValueVector || vector instanceof LargeListVector;
        if (hasOffsets && vector.getValueCount() > 0 && (offsets == null || offsets.capacity() == 0)) {
            throw new InvalidArrowException(path + ".buffers[1]", "the offsets buffer arrived empty but the array has "
                    + vector.getValueCount() + " values");
        }
        List<FieldVector> children = vector.getChildrenFromFields();
        for (int k = 0; k < children.size(); k++) {
            collect(children.get(k), path + ".children[" + k + "]");
        }
    }

    private void add(ArrowBuf buffer) {
        if (buffer != null) {
            // buffers of length 0 may start where the next one does: the longer one bounds both
            capacities.merge(buffer.memoryAddress(), buffer.capacity(), Math::max);
        }
    }

    /** @return what the accessor gives, or null where the vector has no such buffer */
    private static ArrowBuf optional(Supplier<ArrowBuf> accessor) {
        try {
            return accessor.get();
        } catch (UnsupportedOperationException absent) {
            return null;
        }
    }
}
