package dev.quiver.share.internal.arrays;

import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;

/**
 * Whether the contents of an array of a schema can send a reader anywhere its structure did not say: offsets,
 * list-view sizes, views, union type ids and offsets, dictionary indices and run ends can; validity bits, booleans
 * and fixed-width values cannot. A receiver checks the contents of device arrays on the host only where they can,
 * since that means copying the array off its device. Stateless.
 */
final class ContentChecks {
    private ContentChecks() {}

    /** {@return whether any node of {@code field}'s tree has contents that address other memory} @param field the schema */
    static boolean needed(Field field) {
        if (field.dictionary() != null || field.type() instanceof ArrowType.RunEndEncoded) {
            return true;
        }
        for (BufferLayout.Buffer buffer : BufferLayout.of(field.type()).buffers()) {
            BufferLayout.Kind kind = buffer.kind();
            if (kind != BufferLayout.Kind.VALIDITY && kind != BufferLayout.Kind.BITS && kind != BufferLayout.Kind.FIXED) {
                return true;
            }
        }
        for (Field child : field.children()) {
            if (needed(child)) {
                return true;
            }
        }
        return false;
    }
}
