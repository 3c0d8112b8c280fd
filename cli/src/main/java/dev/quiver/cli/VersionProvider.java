package dev.quiver.cli;

import picocli.CommandLine.IVersionProvider;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/**
 * What {@code quiver --version} prints: the Quiver version, as Maven wrote it into
 * {@code version.properties} when it built this module, and the JDK that runs the command. Stateless;
 * thread-safe.
 */
final class VersionProvider implements IVersionProvider {

    /** @return the version of the artifacts this command was built from, for example {@code 0.1.0-SNAPSHOT} */
    static String quiverVersion() {
        try (InputStream in = VersionProvider.class.getResourceAsStream("version.properties")) {
            if (in == null) {
                return "unknown (version.properties missing)";
            }
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "unknown");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read version.properties", e);
        }
    }

    @Override
    public String[] getVersion() {
        return new String[] {
                "quiver " + quiverVersion(),
                "JDK " + Runtime.version() + " (" + System.getProperty("java.vm.vendor") + ", "
                        + System.getProperty("java.vm.name") + ") on " + System.getProperty("os.name") + " "
                        + System.getProperty("os.arch")
        };
    }
}
