package dev.quiver.spark;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * A resource discovery script as a user writes it: a shell script that runs {@code quiver devices --spark-resource
 * NAME [--type TYPE]}, here the CLI's main class on this JVM's class path with this JVM's {@code java}.
 */
final class DiscoveryScript {
    private DiscoveryScript() {}

    /**
     * @param resource the resource's name
     * @param type     the device type whose ids are listed, or null for every non-CPU device as TYPE:ID
     * @return an executable script in a temporary directory
     */
    static Path path(String resource, String type) {
        try {
            Path dir = Files.createTempDirectory("quiver-spark-discovery");
            Path script = dir.resolve("discover-" + resource + ".sh");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Files.writeString(script, "#!/bin/sh\nexec '" + java + "' --enable-native-access=ALL-UNNAMED -cp '"
                    + System.getProperty("java.class.path") + "' dev.quiver.cli.Quiver devices --spark-resource " + resource
                    + (type == null ? "" : " --type " + type) + "\n");
            Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
            dir.toFile().deleteOnExit();
            script.toFile().deleteOnExit();
            return script;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
