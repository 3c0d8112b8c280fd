package dev.quiver.internal.validate;

/** Builds the field paths that errors and reports name, such as {@code children[1].buffers[2]}. */
public final class Paths {
    private Paths() {}

    /**
     * @param parent the parent's path, or {@code ""} at the root
     * @param member a member name
     * @return {@code parent.member}, or {@code member} at the root
     */
    public static String join(String parent, String member) {
        return parent.isEmpty() ? member : parent + "." + member;
    }

    /**
     * @param parent the parent's path, or {@code ""} at the root
     * @param member an array member name
     * @param i      the index
     * @return {@code parent.member[i]}
     */
    public static String index(String parent, String member, long i) {
        return join(parent, member + "[" + i + "]");
    }
}
