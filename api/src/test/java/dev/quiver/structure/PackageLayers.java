package dev.quiver.structure;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * The layers of {@code api}'s packages, bottom to top, and the references that run back up them. The order is the
 * one {@code docs/ARCHITECTURE.md} describes: the data types of the C ABI and the type model at the bottom; the
 * internals above them; the device model and arrays ({@code dev.quiver}, with {@code memory} and {@code plugin})
 * above those; {@code bridge}, which uses {@code dev.quiver}; and the protocol and host packages on top. A reference
 * from a class to a class of a higher layer is an arrow back up. Stateless.
 */
final class PackageLayers {
    private PackageLayers() {}

    /**
     * @param packageName a package of {@code api}
     * @return its layer, 0 at the bottom
     */
    static int of(String packageName) {
        if (packageName.equals("dev.quiver.type") || packageName.equals("dev.quiver.abi")) {
            return 0;
        }
        if (packageName.startsWith("dev.quiver.internal")) {
            return 1;
        }
        if (packageName.equals("dev.quiver") || packageName.equals("dev.quiver.memory")
                || packageName.equals("dev.quiver.plugin")) {
            return 2;
        }
        if (packageName.equals("dev.quiver.bridge")) {
            return 3;
        }
        return 4;
    }

    /**
     * @param classes the compiled classes of {@code api}
     * @return one line per pair of top-level classes where the first refers to the second and the second lies in
     *         a higher layer, {@code "pkg.A -> pkg.B"}, sorted; references outside {@code dev.quiver} (the SPI
     *         included) are not counted
     */
    static List<String> arrowsBackUp(List<ClassFile> classes) {
        Set<String> arrows = new TreeSet<>();
        for (ClassFile c : classes) {
            String from = topLevel(c.name());
            for (String target : c.referenced()) {
                String to = topLevel(target);
                if (to.startsWith("dev.quiver.") && !to.startsWith("dev.quiver.spi.")
                        && of(ClassFile.packageOf(to)) > of(ClassFile.packageOf(from))) {
                    arrows.add(from + " -> " + to);
                }
            }
        }
        return List.copyOf(arrows);
    }

    private static String topLevel(String binaryName) {
        int nested = binaryName.indexOf('$', binaryName.lastIndexOf('.') + 1);
        return nested < 0 ? binaryName : binaryName.substring(0, nested);
    }
}
