package dev.quiver.internal.abi;

import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.type.Field;

/**
 * Recognises an ArrowSchema that Quiver exported and that is still exactly as written: its top-level node
 * names a live schema export, and every word of the tree (strings, counts, flags, pointers, ids, release
 * callbacks) equals what {@link SchemaImage} wrote for its field. Such a schema reads as that field, so an
 * import of a schema Quiver itself exported needs neither a parse nor a key: one comparison of the tree
 * with its image. Reads only memory of live exports, which Quiver allocated. Stateless; safe from any
 * thread.
 */
public final class ExportedSchemas {
    private ExportedSchemas() {}

    /**
     * @param schema the address of an ArrowSchema the caller owns and has not released (so that, if it is
     *               one of ours, its tree's block stays allocated)
     * @return the field it was exported from, or null if it is not an unchanged schema export of Quiver's
     */
    public static Field recognise(long schema) {
        if (RawMemory.getAddress(schema + ArrowSchemaLayout.RELEASE) != ReleaseCallbacks.schemaReleaseAddress()) {
            return null;
        }
        long id = RawMemory.getAddress(schema + ArrowSchemaLayout.PRIVATE_DATA);
        int slot = ExportTable.find(id);
        if (slot < 0 || !(ExportTable.owner(slot) instanceof SchemaImage image)) {
            return null;
        }
        return image.isWrittenAt(schema, ExportTable.block(slot), id) ? image.field() : null;
    }
}
