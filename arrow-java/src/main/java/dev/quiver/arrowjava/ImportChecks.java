package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.Copies;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.ReadOnlyArrayException;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.apache.arrow.c.CDataDictionaryProvider;

import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * What is checked before a DeviceArray is handed to Arrow Java's importer, so that an array Arrow Java would
 * misread is refused while its owner still has it.
 */
final class ImportChecks {
    private ImportChecks() {}

    /**
     * @param array  an open DeviceArray
     * @param policy what may happen to arrays Arrow Java cannot take as they are
     * @return {@code array} itself if it is on the CPU and writable, else a host copy owned by the caller
     * @throws IllegalArgumentException if the array is not on the CPU and {@code policy} forbids the copy
     * @throws ReadOnlyArrayException   if the array is read-only (Arrow Java vectors can be written to) and
     *                                  {@code policy} forbids the copy
     */
    static DeviceArray onCpu(DeviceArray array, DeviceCopy policy) {
        boolean cpu = array.deviceType().equals(DeviceType.CPU);
        if (cpu && !array.isReadOnly()) {
            return array;
        }
        if (policy != DeviceCopy.COPY_TO_HOST) {
            if (!cpu) {
                throw new IllegalArgumentException(array + " is in " + array.deviceType() + " memory, which Arrow Java cannot read;"
                        + " copy it to the CPU first (DeviceCopy.COPY_TO_HOST, or Copies.toHost(DeviceArray))");
            }
            throw new ReadOnlyArrayException(array + " is read-only: its producer forbids writes to its memory, and Arrow Java"
                    + " vectors can be written to; allow a copy (DeviceCopy.COPY_TO_HOST)");
        }
        return Copies.toHost(array);
    }

    /**
     * Refuses what Arrow Java's C Data importer would get wrong: it ignores {@code ArrowArray.offset}
     * (reading a slice from the start of its buffers), and needs a provider for dictionaries. Slices are
     * refused rather than compacted, because compacting is a copy and copies are never silent.
     *
     * @param array        an open CPU DeviceArray
     * @param dictionaries the provider the caller gave, or null
     * @throws IllegalArgumentException naming the first offending node (nesting depth was bounded when the
     *                                  DeviceArray was imported)
     */
    static void importable(DeviceArray array, CDataDictionaryProvider dictionaries) {
        requireZeroOffsets(Interchange.arrowArray(array), array.field(), array.field().name(), dictionaries);
    }

    /**
     * Refuses types Arrow Java would import wrongly: it has no vectors for 32- and 64-bit decimals and reads
     * their buffers as 128-bit decimals.
     *
     * @param field the field of an array
     * @throws IllegalArgumentException naming the first such field
     */
    static void representable(Field field) {
        representable(field, field.name());
    }

    private static void representable(Field field, String path) {
        if (field.type() instanceof ArrowType.Decimal decimal && decimal.bitWidth() < 128) {
            throw new IllegalArgumentException(path + " is a " + decimal.bitWidth() + "-bit decimal (" + field.type().format()
                    + "): Arrow Java has no vector for it and would read its buffer as 128-bit decimals");
        }
        for (int k = 0; k < field.children().size(); k++) {
            Field child = field.children().get(k);
            representable(child, path + ".children[" + k + "](" + child.name() + ")");
        }
        if (field.dictionary() != null) {
            representable(field.dictionary().values(), path + ".dictionary");
        }
    }

    /**
     * @param array an open CPU DeviceArray
     * @throws IllegalArgumentException if it is not a struct array (the shape of a record batch)
     */
    static void isRecordBatch(DeviceArray array) {
        if (!(array.field().type() instanceof ArrowType.Struct) || array.field().dictionary() != null) {
            throw new IllegalArgumentException(array + " is of type " + array.field().type().format()
                    + ", not a struct: only struct arrays become a VectorSchemaRoot");
        }
    }

    private static void requireZeroOffsets(MemorySegment node, Field field, String path, CDataDictionaryProvider dictionaries) {
        long offset = node.get(JAVA_LONG, ArrowArrayLayout.OFFSET);
        if (offset != 0) {
            throw new IllegalArgumentException(path + ".offset is " + offset + ": Arrow Java's C Data importer ignores"
                    + " ArrowArray.offset and would read the wrong slots, so only arrays whose offsets are all 0 can go to Arrow Java");
        }
        long n = node.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        if (n > 0) {
            MemorySegment children = node.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(n * ADDRESS.byteSize());
            for (int k = 0; k < n; k++) {
                Field child = field.children().get(k);
                requireZeroOffsets(children.getAtIndex(ADDRESS, k).reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), child,
                        path + ".children[" + k + "](" + child.name() + ")", dictionaries);
            }
        }
        if (field.dictionary() != null) {
            if (dictionaries == null) {
                throw new IllegalArgumentException(path + " is dictionary-encoded but no CDataDictionaryProvider was given");
            }
            MemorySegment dictionary = node.get(ADDRESS, ArrowArrayLayout.DICTIONARY).reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
            requireZeroOffsets(dictionary, field.dictionary().values(), path + ".dictionary", dictionaries);
        }
    }
}
