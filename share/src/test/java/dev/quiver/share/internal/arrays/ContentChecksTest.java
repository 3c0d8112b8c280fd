package dev.quiver.share.internal.arrays;

import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Which schemas have contents that a receiver must check on the host before it trusts a device array: those with
 * offsets, views, union ids, dictionary indices or run ends anywhere in the tree; not those of fixed-width columns.
 */
class ContentChecksTest {
    private static Field int64(String name) {
        return Field.of(name, new ArrowType.Int(64, true), true);
    }

    @Test
    void fixedWidthColumnsAndStructsOfThemAddressNothing() {
        assertFalse(ContentChecks.needed(int64("id")));
        assertFalse(ContentChecks.needed(Field.of("ok", new ArrowType.Bool(), true)));
        assertFalse(ContentChecks.needed(Field.of("x", new ArrowType.FloatingPoint(64), false)));
        assertFalse(ContentChecks.needed(Field.struct("row", true, List.of(int64("a"), Field.of("b", new ArrowType.Bool(), true)))));
    }

    @Test
    void offsetsViewsUnionsDictionariesAndRunEndsAnywhereInTheTreeDo() {
        assertTrue(ContentChecks.needed(Field.of("s", new ArrowType.Utf8(), true)));
        assertTrue(ContentChecks.needed(Field.of("v", new ArrowType.Utf8View(), true)));
        assertTrue(ContentChecks.needed(Field.list("l", true, int64("item"))));
        assertTrue(ContentChecks.needed(Field.struct("row", true, List.of(int64("a"), Field.of("s", new ArrowType.Utf8(), true)))),
                "a string column inside a struct");
        assertTrue(ContentChecks.needed(Field.of("u", new ArrowType.Union(ArrowType.UnionMode.SPARSE, List.of(0)), true,
                List.of(int64("a")))));
        assertTrue(ContentChecks.needed(Field.of("d", new ArrowType.Int(32, true), true)
                .withDictionary(new Field.DictionaryEncoding(Field.of("values", new ArrowType.FloatingPoint(64), false), false))),
                "dictionary indices address the dictionary");
        assertTrue(ContentChecks.needed(Field.of("r", new ArrowType.RunEndEncoded(), true,
                List.of(Field.of("run_ends", new ArrowType.Int(32, true), false), int64("values")))));
    }

    @Test
    void theBuffersThatAddressMemoryAreTheOffsetsViewsSizesIdsIndicesAndRunEndsAlone() {
        List<ContentChecks.NodeContents> utf8 = ContentChecks.nodes(Field.of("s", new ArrowType.Utf8(), true));
        assertEquals(List.of(false, true, false), addressing(utf8.getFirst(), 3), "validity, offsets, string bytes");
        List<ContentChecks.NodeContents> view = ContentChecks.nodes(Field.of("v", new ArrowType.BinaryView(), true));
        assertEquals(List.of(false, true, false, false, true), addressing(view.getFirst(), 5),
                "validity, views, two variadic buffers of bytes, their sizes");
        List<ContentChecks.NodeContents> runs = ContentChecks.nodes(Field.of("r", new ArrowType.RunEndEncoded(), true,
                List.of(Field.of("run_ends", new ArrowType.Int(32, true), false), int64("values"))));
        assertEquals(3, runs.size());
        assertEquals(List.of(false, true), addressing(runs.get(1), 2), "the run ends");
        assertEquals(List.of(false, false), addressing(runs.get(2), 2), "the run values");
        List<ContentChecks.NodeContents> dictionary = ContentChecks.nodes(Field.of("d", new ArrowType.Int(32, true), true)
                .withDictionary(new Field.DictionaryEncoding(Field.of("values", new ArrowType.Utf8(), false), false)));
        assertEquals(List.of(false, true), addressing(dictionary.getFirst(), 2), "the indices");
        assertEquals(List.of(false, true, false), addressing(dictionary.get(1), 3), "the dictionary's offsets");
    }

    @Test
    void aCopyTakesTheBytesANodeUsesAndNeverMoreThanTheBufferHas() {
        ContentChecks.NodeContents utf8 = ContentChecks.nodes(Field.of("s", new ArrowType.Utf8(), true)).getFirst();
        assertEquals(44, utf8.bytesUsed(1, 3, 10, 1 << 20), "11 offsets of 4 bytes");
        assertEquals(8, utf8.bytesUsed(1, 3, 10, 8), "no more than the buffer has; the builder refuses it");
        assertEquals(1 << 20, utf8.bytesUsed(1, 3, -5, 1 << 20), "a negative length: the whole buffer, then refused");
        assertEquals(1 << 20, utf8.bytesUsed(1, 3, Long.MAX_VALUE, 1 << 20), "an overflowing size: the whole buffer");
        ContentChecks.NodeContents view = ContentChecks.nodes(Field.of("v", new ArrowType.Utf8View(), true)).getFirst();
        assertEquals(16, view.bytesUsed(4, 5, 3, 1 << 20), "the sizes of two variadic buffers");
    }

    private static List<Boolean> addressing(ContentChecks.NodeContents node, int nBuffers) {
        return java.util.stream.IntStream.range(0, nBuffers).mapToObj(i -> node.addresses(i, nBuffers)).toList();
    }
}
