package dev.quiver.structure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The main source files of every module of the repository (each {@code src/main} below its root, the separate
 * builds under {@code examples/} included), read from the working tree: the structure rules that hold for every
 * module are checked on sources, since a test of {@code api} runs before the other modules are compiled.
 */
final class MainSources {
    /** Directories that hold no sources of the repository's own: build outputs and version control. */
    private static final Set<String> SKIPPED = Set.of("target", ".git", ".mvn", "node_modules");

    private MainSources() {}

    /**
     * @param inside a directory inside the repository, for example a module's {@code target/classes}
     * @return the repository's root: the nearest directory above it whose {@code pom.xml} lists the module {@code api}
     * @throws IllegalStateException if there is none
     */
    static Path repositoryRoot(Path inside) {
        for (Path dir = inside.toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path pom = dir.resolve("pom.xml");
            try {
                if (Files.isRegularFile(pom) && Files.readString(pom).contains("<module>api</module>")) {
                    return dir;
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalStateException("no repository root (a pom.xml listing the module api) above " + inside);
    }

    /**
     * @param root       the repository's root
     * @param extensions the file name endings to keep, for example {@code ".java"}
     * @return every file below some {@code src/main} whose name ends with one of them, as paths relative to
     *         {@code root} with {@code /} between names, sorted
     */
    static List<String> files(Path root, Set<String> extensions) {
        List<String> found = new ArrayList<>();
        try {
            Files.walkFileTree(root, new SimpleFileVisitor<>() {
                @Override
                public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                    return SKIPPED.contains(dir.getFileName().toString()) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                }

                @Override
                public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                    String relative = root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                    if (relative.contains("/src/main/") && extensions.stream().anyMatch(relative::endsWith)) {
                        found.add(relative);
                    }
                    return FileVisitResult.CONTINUE;
                }
            });
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        found.sort(null);
        return found;
    }

    /** @return the text of {@code file} below {@code root} */
    static String read(Path root, String file) {
        try {
            return Files.readString(root.resolve(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
