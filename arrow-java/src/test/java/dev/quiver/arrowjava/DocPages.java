package dev.quiver.arrowjava;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * The Markdown pages the build checks: the repository's README.md and every page under {@code docs/}, at any
 * depth. The README's path comes from the {@code quiver.readme} system property the build sets; the pages are
 * found beside it.
 */
final class DocPages {
    private static final String README = "quiver.readme";

    private DocPages() {}

    /** @return the repository's README.md */
    static Path readme() {
        String path = System.getProperty(README);
        if (path == null) {
            throw new IllegalStateException("system property " + README + " (the path of README.md) is not set");
        }
        return Path.of(path).toAbsolutePath().normalize();
    }

    /** @return the repository's root folder */
    static Path root() {
        return readme().getParent();
    }

    /** @return README.md, then every {@code .md} file under {@code docs/}, in path order */
    static List<Path> all() throws IOException {
        List<Path> pages = new ArrayList<>(List.of(readme()));
        try (Stream<Path> docs = Files.walk(root().resolve("docs"))) {
            docs.filter(p -> p.toString().endsWith(".md") && Files.isRegularFile(p)).sorted().forEach(pages::add);
        }
        return pages;
    }

    /**
     * @param page a page of {@link #all()}
     * @return its path from the repository's root, as failures name it ({@code docs/guides/flight.md})
     */
    static String name(Path page) {
        return root().relativize(page.toAbsolutePath().normalize()).toString().replace('\\', '/');
    }
}
