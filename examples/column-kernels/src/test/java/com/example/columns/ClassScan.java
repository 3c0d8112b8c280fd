package com.example.columns;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;

/**
 * What compiled classes refer to, as the JDK's own tools read it: {@code jdeps} for the classes they depend
 * on, {@code javap} for the methods they call (their constant pools). Stateless; any thread.
 */
final class ClassScan {
    /** Packages a library on Quiver's public API has no business with. */
    static final List<String> FORBIDDEN_PACKAGES = List.of(
            "dev.quiver.internal", "dev.quiver.device.", "dev.quiver.spi", "java.lang.reflect");
    /** Methods that reach classes by name or members by reflection, as constant pools spell them. */
    static final List<String> FORBIDDEN_METHODS = List.of(
            "java/lang/Class.forName", "java/lang/Class.getDeclared", "java/lang/Class.getMethod",
            "java/lang/Class.getField", "java/lang/Class.getConstructor", "java/lang/reflect/",
            "java/lang/invoke/MethodHandles.privateLookupIn", "java/lang/invoke/MethodHandles$Lookup.find",
            "java/lang/invoke/MethodHandles$Lookup.unreflect");

    private ClassScan() {
    }

    /** @return the class files under {@code directory}, but the module descriptor */
    static List<Path> classFiles(Path directory) {
        try (Stream<Path> files = Files.walk(directory)) {
            return files.filter(f -> f.toString().endsWith(".class") && !f.endsWith("module-info.class"))
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * A class dependency.
     *
     * @param from the class that depends
     * @param to   the class it depends on
     */
    record Dependency(String from, String to) {
        @Override
        public String toString() {
            return from + " -> " + to;
        }
    }

    /** @return the class dependencies {@code jdeps} finds in {@code classFiles} */
    static List<Dependency> dependencies(List<Path> classFiles) {
        return run("jdeps", arguments(List.of("-verbose:class", "-filter:none", "--ignore-missing-deps"), classFiles)).lines()
                .map(line -> line.strip().split("\\s+"))
                .filter(parts -> parts.length >= 3 && parts[1].equals("->"))
                .map(parts -> new Dependency(parts[0], parts[2]))
                .toList();
    }

    /** @return the dependencies of {@code classFiles} into a forbidden package */
    static List<String> forbiddenDependencies(List<Path> classFiles) {
        return dependencies(classFiles).stream()
                .filter(d -> FORBIDDEN_PACKAGES.stream().anyMatch(d.to()::startsWith))
                .map(Dependency::toString)
                .toList();
    }

    /** @return the method references of the constant pools of {@code classFiles} that call a forbidden method */
    static List<String> forbiddenCalls(List<Path> classFiles) {
        return run("javap", arguments(List.of("-v", "-p"), classFiles)).lines()
                .filter(line -> line.contains("= Methodref") || line.contains("= InterfaceMethodref"))
                .map(line -> line.substring(line.indexOf("//") + 2).strip())
                .filter(target -> FORBIDDEN_METHODS.stream().anyMatch(target::startsWith))
                .toList();
    }

    private static String[] arguments(List<String> options, List<Path> classFiles) {
        return Stream.concat(options.stream(), classFiles.stream().map(Path::toString)).toArray(String[]::new);
    }

    private static String run(String tool, String... arguments) {
        ToolProvider provider = ToolProvider.findFirst(tool)
                .orElseThrow(() -> new AssertionError("this JDK has no " + tool + " tool"));
        StringWriter out = new StringWriter();
        try (PrintWriter writer = new PrintWriter(out)) {
            int status = provider.run(writer, writer, arguments);
            writer.flush();
            if (status != 0) {
                throw new AssertionError(tool + " " + String.join(" ", arguments) + " failed (" + status + "):\n" + out);
            }
        }
        return out.toString();
    }
}
