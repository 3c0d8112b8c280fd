package dev.quiver.arrowjava;

import dev.quiver.Interchange;
import dev.quiver.abi.ArrowArrayLayout;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.vector.ExtensionTypeVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.dictionary.DictionaryProvider;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The buffer pointers of an {@code ArrowArray} tree, read from the C struct (children and dictionary
 * included), to prove that the bridge shares memory with Arrow Java instead of copying it.
 *
 * @param path       where this node is, for messages
 * @param buffers    the {@code buffers[i]} pointers
 * @param children   the children
 * @param dictionary the dictionary, or null
 */
record BufferTree(String path, List<Long> buffers, List<BufferTree> children, BufferTree dictionary) {

    /**
     * @param array a {@code struct ArrowArray} (for example {@code Interchange.arrowArray(DeviceArray)})
     * @return its pointers, copied out (valid after the array moved on)
     */
    static BufferTree of(MemorySegment array) {
        return of(array.reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), "array");
    }

    private static BufferTree of(MemorySegment array, String path) {
        long nBuffers = array.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        long nChildren = array.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        List<Long> buffers = new ArrayList<>();
        MemorySegment pointers = array.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(nBuffers * ADDRESS.byteSize());
        for (int i = 0; i < nBuffers; i++) {
            buffers.add(pointers.getAtIndex(ADDRESS, i).address());
        }
        List<BufferTree> children = new ArrayList<>();
        MemorySegment childPointers = array.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(nChildren * ADDRESS.byteSize());
        for (int k = 0; k < nChildren; k++) {
            children.add(of(childPointers.getAtIndex(ADDRESS, k).reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), path + ".children[" + k + "]"));
        }
        MemorySegment dictionary = array.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        return new BufferTree(path, buffers, children,
                dictionary.equals(MemorySegment.NULL) ? null : of(dictionary.reinterpret(ArrowArrayLayout.LAYOUT.byteSize()), path + ".dictionary"));
    }

    /**
     * Asserts that every buffer Arrow Java holds with data (capacity above zero) for which the C struct has a
     * pointer is that very memory: {@code buffers[i] == vector.getFieldBuffers().get(i).memoryAddress()},
     * through children and dictionaries.
     *
     * @param vector       the Arrow Java vector at this node
     * @param dictionaries where its dictionaries are, or null
     * @return how many buffers were compared
     */
    int assertSameMemory(FieldVector vector, DictionaryProvider dictionaries) {
        FieldVector storage = vector instanceof ExtensionTypeVector<?> e ? e.getUnderlyingVector() : vector;
        List<ArrowBuf> held = storage.getFieldBuffers();
        int compared = 0;
        for (int i = 0; i < Math.min(held.size(), buffers.size()); i++) {
            ArrowBuf buffer = held.get(i);
            if (buffer != null && buffer.capacity() > 0 && buffers.get(i) != 0) {
                assertEquals(buffers.get(i), buffer.memoryAddress(), path + ".buffers[" + i + "] of " + vector.getField());
                compared++;
            }
        }
        List<FieldVector> childVectors = storage.getChildrenFromFields();
        assertEquals(children.size(), childVectors.size(), path + ": children");
        for (int k = 0; k < children.size(); k++) {
            compared += children.get(k).assertSameMemory(childVectors.get(k), dictionaries);
        }
        if (dictionary != null) {
            long id = vector.getField().getDictionary().getId();
            compared += dictionary.assertSameMemory(dictionaries.lookup(id).getVector(), dictionaries);
        }
        return compared;
    }

    /**
     * @param vectors the vectors of a vector schema root, one per child of this (struct) node
     * @param dictionaries where their dictionaries are, or null
     * @return how many buffers were compared
     */
    int assertSameMemory(List<FieldVector> vectors, DictionaryProvider dictionaries) {
        assertEquals(children.size(), vectors.size(), path + ": columns");
        int compared = 0;
        for (int k = 0; k < children.size(); k++) {
            compared += children.get(k).assertSameMemory(vectors.get(k), dictionaries);
        }
        return compared;
    }
}
