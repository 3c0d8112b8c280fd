package dev.quiver.structure;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The files of one package that use each other: pairs of top-level classes (a source file and its nested classes
 * count as one) where each refers to the other in its compiled form. A reference that javac leaves out of the class
 * file (a constant it inlined, a javadoc link) does not count. Stateless.
 */
final class FileDependencies {
    private FileDependencies() {}

    /**
     * @param classes     the classes of one code base
     * @param packageName the package whose files are compared, without its subpackages
     * @return one line per pair, {@code "A <-> B"} with the simple names in order, sorted; empty if every dependency
     *         inside the package runs one way
     */
    static List<String> twoWay(List<ClassFile> classes, String packageName) {
        Map<String, Set<String>> uses = new TreeMap<>();
        for (ClassFile c : classes) {
            if (!c.packageName().equals(packageName)) {
                continue;
            }
            String from = topLevel(c.name());
            Set<String> targets = uses.computeIfAbsent(from, k -> new TreeSet<>());
            for (String target : c.referenced()) {
                String to = topLevel(target);
                if (ClassFile.packageOf(to).equals(packageName) && !to.equals(from)) {
                    targets.add(to);
                }
            }
        }
        List<String> pairs = new ArrayList<>();
        uses.forEach((from, targets) -> {
            for (String to : targets) {
                if (from.compareTo(to) < 0 && uses.getOrDefault(to, Set.of()).contains(from)) {
                    pairs.add(simpleName(from) + " <-> " + simpleName(to));
                }
            }
        });
        return pairs;
    }

    private static String topLevel(String binaryName) {
        int nested = binaryName.indexOf('$', binaryName.lastIndexOf('.') + 1);
        return nested < 0 ? binaryName : binaryName.substring(0, nested);
    }

    private static String simpleName(String binaryName) {
        return binaryName.substring(binaryName.lastIndexOf('.') + 1);
    }
}
