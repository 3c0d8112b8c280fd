package dev.quiver.spark;

import dev.quiver.flight.DeviceFlightClient;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.spark.sql.util.CaseInsensitiveStringMap;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.Serial;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * The options of the {@code quiver-flight} data source, checked on the driver and shipped to the executors:
 * <ul>
 * <li>{@code location}: the server, {@code grpc+tcp://host:port} or {@code grpc+tls://host:port} (required);</li>
 * <li>{@code path}: the stream's name, its descriptor's path (reading: this or {@code command}; writing: required,
 *     each partition is put as {@code PATH/part-N});</li>
 * <li>{@code command}: for reading, a command descriptor (UTF-8) instead of a path;</li>
 * <li>{@code trust}: a PEM file of certificates to trust for {@code grpc+tls} (read on the driver; default: the JVM's),
 *     as {@code quiver flight --trust};</li>
 * <li>{@code user} and {@code password}: log in (basic, then the bearer token the server issues), as
 *     {@code quiver flight --user}; or {@code token}: a bearer token already held;</li>
 * <li>{@code batchRows}: for writing, rows per Arrow batch (default 65536).</li>
 * </ul>
 * Spark hides the values of options whose names contain {@code password} or {@code token} in its plans and UI.
 *
 * <p><b>Ownership and threading.</b> Immutable; shared by any threads. Each {@link #client} is the caller's.
 */
final class FlightOptions implements Serializable {
    @Serial
    private static final long serialVersionUID = 1L;
    static final int DEFAULT_BATCH_ROWS = 65_536;

    private final String location;
    private final String path;
    private final String command;
    private final byte[] trusted;
    private final String user;
    private final String password;
    private final String token;
    private final int batchRows;

    private FlightOptions(Map<String, String> given) {
        CaseInsensitiveStringMap options = given instanceof CaseInsensitiveStringMap c ? c : new CaseInsensitiveStringMap(given);
        location = options.get("location");
        if (location == null) {
            throw new IllegalArgumentException("quiver-flight needs the option location (grpc+tcp://host:port or grpc+tls://host:port)");
        }
        location();
        path = options.get("path");
        command = options.get("command");
        if (path != null && command != null) {
            throw new IllegalArgumentException("quiver-flight: give the option path or the option command, not both");
        }
        String trust = options.get("trust");
        try {
            trusted = trust == null ? null : Files.readAllBytes(Path.of(trust));
        } catch (IOException e) {
            throw new UncheckedIOException("quiver-flight: option trust: cannot read the certificates " + trust + ": " + e.getMessage(), e);
        }
        user = options.get("user");
        password = options.get("password");
        token = options.get("token");
        if (user != null && password == null) {
            throw new IllegalArgumentException("quiver-flight: option user " + user + " needs the option password");
        }
        if (user != null && token != null) {
            throw new IllegalArgumentException("quiver-flight: give the options user and password or the option token, not both");
        }
        batchRows = options.getInt("batchRows", DEFAULT_BATCH_ROWS);
        if (batchRows < 1) {
            throw new IllegalArgumentException("quiver-flight: option batchRows " + batchRows + " is not a positive number of rows");
        }
    }

    /**
     * {@return the options, checked}
     * @param options what the user gave ({@code spark.read.option(...)})
     * @throws IllegalArgumentException naming the option that is missing or wrong
     * @throws UncheckedIOException     if the {@code trust} file cannot be read
     */
    static FlightOptions of(Map<String, String> options) {
        return new FlightOptions(options);
    }

    /** {@return the descriptor of the stream read} @throws IllegalArgumentException if neither path nor command is given */
    FlightDescriptor descriptor() {
        if (path != null) {
            return FlightDescriptor.path(path);
        }
        if (command != null) {
            return FlightDescriptor.command(command.getBytes(StandardCharsets.UTF_8));
        }
        throw new IllegalArgumentException("quiver-flight needs the option path (the stream's name) or command, to know which stream");
    }

    /** {@return the name written partitions are put under, PATH/part-N} @throws IllegalArgumentException without path */
    String partName(int partitionId) {
        if (path == null) {
            throw new IllegalArgumentException("writing to quiver-flight needs the option path: each partition is put as PATH/part-N");
        }
        return path + "/part-" + partitionId;
    }

    /** {@return rows per Arrow batch a writer sends} */
    int batchRows() {
        return batchRows;
    }

    /** {@return the server's location} */
    Location location() {
        try {
            Location parsed = new Location(location);
            String scheme = parsed.getUri().getScheme();
            if (!List.of("grpc", "grpc+tcp", "grpc+tls").contains(scheme)) {
                throw new IllegalArgumentException("the scheme " + scheme + " is none of grpc, grpc+tcp, grpc+tls");
            }
            return parsed;
        } catch (URISyntaxException | IllegalArgumentException e) {
            throw new IllegalArgumentException("quiver-flight: option location " + location + " is not a Flight location"
                    + " (grpc+tcp://host:port or grpc+tls://host:port): " + e.getMessage(), e);
        }
    }

    /**
     * {@return a client of the server with these options' trust and login, owned by the caller}
     * @param allocator charged for what the client receives; must outlive it
     */
    DeviceFlightClient client(BufferAllocator allocator) {
        DeviceFlightClient.Builder builder = DeviceFlightClient.builder(location(), allocator);
        if (trusted != null) {
            builder.trustedCertificates(new ByteArrayInputStream(trusted));
        }
        if (user != null) {
            builder.basicAuth(user, password);
        } else if (token != null) {
            builder.bearerToken(token);
        }
        return builder.build();
    }

    /** {@return where and what, for plans and messages; no credentials} */
    @Override
    public String toString() {
        return location + (path != null ? " " + path : command != null ? " command " + command : "");
    }
}
