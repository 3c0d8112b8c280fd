package dev.quiver.structure;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The dependencies between the packages of a set of classes, and the cycles among them: each group of
 * packages that reach one another (a strongly connected component of more than one package), described
 * with one class dependency per edge so a failure says where to look.
 */
final class PackageCycles {
    private PackageCycles() {}

    /**
     * @param classes the classes of one code base; dependencies on classes outside it are ignored
     * @return one line per cycle, naming its packages and, for each edge inside it, one class that makes the
     *         edge; empty if the packages form no cycle
     */
    static List<String> find(List<ClassFile> classes) {
        Set<String> packages = new TreeSet<>();
        classes.forEach(c -> packages.add(c.packageName()));
        Map<String, Map<String, String>> edges = new TreeMap<>();
        for (ClassFile c : classes) {
            for (String target : c.referenced()) {
                String to = ClassFile.packageOf(target);
                if (packages.contains(to) && !to.equals(c.packageName())) {
                    edges.computeIfAbsent(c.packageName(), k -> new TreeMap<>()).putIfAbsent(to, c.name() + " -> " + target);
                }
            }
        }
        List<String> cycles = new ArrayList<>();
        for (Set<String> component : new Tarjan(packages, edges).components()) {
            if (component.size() > 1) {
                List<String> why = new ArrayList<>();
                for (String from : component) {
                    edges.getOrDefault(from, Map.of()).forEach((to, example) -> {
                        if (component.contains(to)) {
                            why.add(from + " -> " + to + " (" + example + ")");
                        }
                    });
                }
                cycles.add("packages " + component + " form a cycle: " + String.join("; ", why));
            }
        }
        return cycles;
    }

    /** Tarjan's strongly connected components, iterating over packages in name order. */
    private static final class Tarjan {
        private final Set<String> nodes;
        private final Map<String, Map<String, String>> edges;
        private final Map<String, Integer> index = new HashMap<>();
        private final Map<String, Integer> low = new HashMap<>();
        private final Deque<String> stack = new ArrayDeque<>();
        private final Set<String> onStack = new TreeSet<>();
        private final List<Set<String>> components = new ArrayList<>();

        Tarjan(Set<String> nodes, Map<String, Map<String, String>> edges) {
            this.nodes = nodes;
            this.edges = edges;
        }

        List<Set<String>> components() {
            for (String node : nodes) {
                if (!index.containsKey(node)) {
                    visit(node);
                }
            }
            return components;
        }

        private void visit(String node) {
            index.put(node, index.size());
            low.put(node, index.get(node));
            stack.push(node);
            onStack.add(node);
            for (String next : edges.getOrDefault(node, Map.of()).keySet()) {
                if (!index.containsKey(next)) {
                    visit(next);
                    low.put(node, Math.min(low.get(node), low.get(next)));
                } else if (onStack.contains(next)) {
                    low.put(node, Math.min(low.get(node), index.get(next)));
                }
            }
            if (low.get(node).equals(index.get(node))) {
                Set<String> component = new TreeSet<>();
                String member;
                do {
                    member = stack.pop();
                    onStack.remove(member);
                    component.add(member);
                } while (!member.equals(node));
                components.add(component);
            }
        }
    }
}
