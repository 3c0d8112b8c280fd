package dev.quiver.structure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/** Reads every class file under a directory of compiled classes, except module and package descriptors. */
final class CompiledClasses {
    private CompiledClasses() {}

    /**
     * @param root a class output directory, for example {@code target/classes}
     * @return every class under it, in path order
     * @throws IllegalArgumentException if it holds no class at all (a wrong directory would pass every check)
     */
    static List<ClassFile> under(Path root) {
        try (Stream<Path> files = Files.walk(root)) {
            List<ClassFile> classes = files.filter(p -> p.toString().endsWith(".class"))
                    .filter(p -> !p.getFileName().toString().equals("module-info.class"))
                    .filter(p -> !p.getFileName().toString().equals("package-info.class"))
                    .sorted()
                    .map(CompiledClasses::read)
                    .toList();
            if (classes.isEmpty()) {
                throw new IllegalArgumentException(root + " holds no class files");
            }
            return classes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ClassFile read(Path file) {
        try {
            return ClassFile.parse(Files.readAllBytes(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(file + ": " + e.getMessage(), e);
        }
    }
}
