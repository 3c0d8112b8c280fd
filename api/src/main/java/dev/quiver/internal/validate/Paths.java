package dev.quiver.internal.validate;

/**
 * Builds the field paths that errors and reports name, such as {@code children[1].buffers[2]}. A null
 * parent stands for a walk that names no paths (see {@link FirstFault}): its children's paths are null
 * too, and nothing is built.
 */
public final class Paths {
    private Paths() {}

    /**
     * @param parent the parent's path, {@code ""} at the root, or null on a walk without paths
     * @param member a member name
     * @return {@code parent.member}, or {@code member} at the root; null if {@code parent} is null
     */
    public static String join(String parent, String member) {
        if (parent == null) {
            return null;
        }
        return parent.isEmpty() ? member : parent + "." + member;
    }

    /**
     * @param parent the parent's path, {@code ""} at the root, or null on a walk without paths
     * @param member an array member name
     * @param i      the index
     * @return {@code parent.member[i]}; null if {@code parent} is null
     */
    public static String index(String parent, String member, long i) {
        if (parent == null) {
            return null;
        }
        return join(parent, member + "[" + i + "]");
    }
}
