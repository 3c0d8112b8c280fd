package dev.quiver.internal;

/** Builds the field paths that import errors name, such as {@code children[1].buffers[2]}. */
final class Paths {
    private Paths() {}

    static String join(String parent, String member) {
        return parent.isEmpty() ? member : parent + "." + member;
    }

    static String index(String parent, String member, long i) {
        return join(parent, member + "[" + i + "]");
    }
}
