package dev.quiver.share.internal.arrays;

import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.Test;

import java.util.List;

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
}
