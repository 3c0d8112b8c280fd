package dev.quiver.internal.abi;

/**
 * The exported trees whose release has not finished: for each, the id stored in every node's
 * {@code private_data}, the native block holding its nodes (freed when the last node is released), its
 * owner (a {@link Runnable} that runs then, or what wrote it), and how many of its nodes are not released
 * yet. No Java
 * reference is stored in native memory. The C Data Interface lets a consumer move children out and release
 * them after their parent, so the count goes down by however many nodes each release covers. Allocates
 * nothing once warm. Thread-safe.
 */
final class ExportTable {
    private static final SlotTable TREES = new SlotTable();

    private ExportTable() {}

    /**
     * @param owner what the tree belongs to: a {@link Runnable} runs once, after the last node is released;
     *              anything else (a {@link SchemaImage}, null) is only kept
     * @param block the native block to free then ({@link NativeHeap#malloc}), or 0
     * @param nodes how many nodes hold the tree
     * @return the tree's id, for every node's {@code private_data}
     */
    static long register(Object owner, long block, int nodes) {
        return TREES.add(owner, block, nodes);
    }

    /**
     * Forgets a tree that was registered but never handed out (its writing failed), without running its
     * owner; frees its block.
     */
    static void discard(long id) {
        int slot = TREES.slot(id);
        if (slot >= 0) {
            long block = TREES.word(slot);
            if (TREES.remove(id) && block != 0) {
                NativeHeap.free(block);
            }
        }
    }

    /**
     * @param id a {@code private_data} value
     * @return the slot of the tree {@code id} names, or -1 if it names no tree not yet fully released
     */
    static int find(long id) {
        return TREES.slot(id);
    }

    /**
     * Counts {@code nodes} nodes of tree {@code id} released; after the last, forgets the tree, frees its
     * block and runs its owner, on this thread.
     *
     * @param slot what {@link #find} gave for {@code id}
     * @return false if {@code id} no longer names a live tree, or the tree has fewer nodes left than that
     */
    static boolean released(int slot, long id, int nodes) {
        Object owner = TREES.value(slot);
        long block = TREES.word(slot);
        long left = TREES.addCount(slot, id, -nodes);
        if (left < 0) {
            return false;
        }
        // only the release that brings the count to zero gets here with 0: it alone removes the tree
        if (left == 0 && TREES.free(id)) {
            try {
                if (owner instanceof Runnable run) {
                    run.run();
                }
            } finally {
                if (block != 0) {
                    NativeHeap.free(block);
                }
            }
        }
        return true;
    }

    /** @return the owner of the tree in {@code slot}, as {@link #find} found it */
    static Object owner(int slot) {
        return TREES.value(slot);
    }

    /** @return the block of the tree in {@code slot}, as {@link #find} found it */
    static long block(int slot) {
        return TREES.word(slot);
    }

    /** @return exported struct nodes whose release has not run yet */
    static long liveNodes() {
        return TREES.totalCount();
    }
}
