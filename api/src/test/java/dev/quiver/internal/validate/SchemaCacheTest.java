package dev.quiver.internal.validate;

import dev.quiver.InvalidArrowException;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Schemas read through {@link SchemaCache}: equal content gives the field read before, any change gives the
 * field of the new content, faults are reported as the reader reports them, and a schema Quiver exported is
 * recognised only while it is exactly as written.
 */
class SchemaCacheTest {
    private static final Faults TRUSTED = Faults.throwing(InvalidArrowException::new);
    private static final Faults CHECKING = Faults.checking(InvalidArrowException::new);

    private final Arena arena = Arena.ofConfined();

    @AfterEach
    void free() {
        arena.close();
    }

    /** A struct schema {@code "+s" name} with one member of format {@code member} named {@code memberName}; release never called. */
    private MemorySegment schema(String name, String member, String memberName) {
        MemorySegment child = node(member, memberName, 0, MemorySegment.NULL);
        MemorySegment children = arena.allocate(ADDRESS);
        children.set(ADDRESS, 0, child);
        return node("+s", name, 1, children);
    }

    private MemorySegment node(String format, String name, long nChildren, MemorySegment children) {
        MemorySegment s = arena.allocate(ArrowSchemaLayout.LAYOUT);
        s.set(ADDRESS, ArrowSchemaLayout.FORMAT, arena.allocateFrom(format));
        s.set(ADDRESS, ArrowSchemaLayout.NAME, arena.allocateFrom(name));
        s.set(JAVA_LONG, ArrowSchemaLayout.FLAGS, ArrowSchemaLayout.FLAG_NULLABLE);
        s.set(JAVA_LONG, ArrowSchemaLayout.N_CHILDREN, nChildren);
        s.set(ADDRESS, ArrowSchemaLayout.CHILDREN, children);
        s.set(ADDRESS, ArrowSchemaLayout.RELEASE, s);   // never called: only read as "not released"
        return s;
    }

    private static Field parsed(MemorySegment schema) {
        return SchemaReader.read(schema, "schema", TRUSTED);
    }

    @Test
    void equalContentGivesTheFieldReadBefore() {
        MemorySegment first = schema("batch-equal", "i", "c0");
        MemorySegment second = schema("batch-equal", "i", "c0");
        Field read = SchemaCache.read(first.address(), TRUSTED);
        assertEquals(parsed(first), read);
        assertSame(read, SchemaCache.read(second.address(), TRUSTED));
        assertSame(read, SchemaCache.read(second.address(), CHECKING), "the content decides, not the trust");
    }

    @Test
    void anyChangeGivesTheFieldOfTheNewContent() {
        MemorySegment schema = schema("batch-change", "i", "c0");
        Field before = SchemaCache.read(schema.address(), TRUSTED);
        MemorySegment memberName = schema.get(ADDRESS, ArrowSchemaLayout.CHILDREN).reinterpret(8).get(ADDRESS, 0)
                .reinterpret(ArrowSchemaLayout.LAYOUT.byteSize()).get(ADDRESS, ArrowSchemaLayout.NAME).reinterpret(3);
        memberName.set(JAVA_BYTE, 1, (byte) '9');
        Field after = SchemaCache.read(schema.address(), TRUSTED);
        assertEquals("c9", after.children().getFirst().name());
        assertEquals(parsed(schema), after);
        assertNotSame(before, after);
    }

    @Test
    void aSpellingTheWriterWouldChangeIsReadCorrectlyEveryTime() {
        MemorySegment schema = schema("batch-decimal", "d:10,2,128", "amount");
        Field expected = Field.struct("batch-decimal", true, List.of(Field.of("amount", new ArrowType.Decimal(10, 2, 128), true)));
        assertEquals(expected, SchemaCache.read(schema.address(), TRUSTED));
        assertEquals(expected, SchemaCache.read(schema.address(), TRUSTED));
    }

    @Test
    void aFaultIsReportedAsTheReaderReportsIt() {
        SchemaCache.read(schema("batch-fault", "i", "c0").address(), TRUSTED);
        InvalidArrowException e = assertThrows(InvalidArrowException.class,
                () -> SchemaCache.read(schema("batch-fault", "Q", "c0").address(), TRUSTED));
        assertEquals("schema.children[0].format", e.fieldPath());
    }

    @Test
    void anUnreadableMemberIsReportedWhenPointersAreChecked() {
        MemorySegment schema = schema("batch-unreadable", "i", "c0");
        SchemaCache.read(schema.address(), CHECKING);
        schema.get(ADDRESS, ArrowSchemaLayout.CHILDREN).reinterpret(8).set(ADDRESS, 0, MemorySegment.ofAddress(4096));
        InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> SchemaCache.read(schema.address(), CHECKING));
        assertEquals("schema.children[0]", e.fieldPath());
    }

    @Test
    void anExportedSchemaIsRecognisedOnlyWhileItIsExactlyAsWritten() {
        Field field = Field.struct("exported", true, List.of(Field.of("x", new ArrowType.Int(32, true), true)));
        MemorySegment target = arena.allocate(ArrowSchemaLayout.LAYOUT);
        StructWriter.writeSchema(target, field);
        try {
            assertSame(field, SchemaCache.read(target.address(), TRUSTED));
            MemorySegment child = target.get(ADDRESS, ArrowSchemaLayout.CHILDREN).reinterpret(8).get(ADDRESS, 0)
                    .reinterpret(ArrowSchemaLayout.LAYOUT.byteSize());
            child.get(ADDRESS, ArrowSchemaLayout.NAME).reinterpret(1).set(JAVA_BYTE, 0, (byte) 'y');
            Field changed = SchemaCache.read(target.address(), TRUSTED);
            assertEquals("y", changed.children().getFirst().name());
            MemorySegment moved = arena.allocate(ArrowSchemaLayout.LAYOUT);
            moved.copyFrom(child);
            child.set(ADDRESS, ArrowSchemaLayout.RELEASE, MemorySegment.NULL);
            InvalidArrowException e = assertThrows(InvalidArrowException.class, () -> SchemaCache.read(target.address(), TRUSTED));
            assertEquals("schema.children[0].release", e.fieldPath());
            ReleaseCallbacks.releaseSchemaStruct(moved);
        } finally {
            ReleaseCallbacks.releaseSchemaStruct(target);
        }
    }
}
