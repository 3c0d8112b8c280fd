package dev.quiver.tck;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/** Reads {@code META-INF/services} entries from a class directory or jar. */
final class ServiceFiles {
    private ServiceFiles() {}

    static Set<String> providers(Path location, String service) {
        String entry = "META-INF/services/" + service;
        try {
            if (Files.isDirectory(location)) {
                Path file = location.resolve(entry);
                return Files.exists(file) ? parse(Files.readString(file)) : Set.of();
            }
            try (FileSystem jar = FileSystems.newFileSystem(URI.create("jar:" + location.toUri()), Map.of())) {
                Path file = jar.getPath(entry);
                if (!Files.exists(file)) {
                    return Set.of();
                }
                try (InputStream in = Files.newInputStream(file)) {
                    return parse(new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Set<String> parse(String text) {
        return text.lines().map(line -> line.replaceFirst("#.*", "").strip()).filter(line -> !line.isEmpty())
                .collect(Collectors.toSet());
    }
}
