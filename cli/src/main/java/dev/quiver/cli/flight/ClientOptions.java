package dev.quiver.cli.flight;

import dev.quiver.Device;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.nio.file.Path;

/**
 * What every {@code quiver flight} client command takes (get, list, put), as a picocli mixin: the server's
 * URI (the first argument), the certificates to trust for TLS ({@code --trust}) and the login
 * ({@link LoginOptions}, which the server shares). Set by picocli, read by the command's thread.
 */
final class ClientOptions {
    @Spec(Spec.Target.MIXEE)
    CommandSpec mixee;

    @Parameters(index = "0", paramLabel = "URI", description = "the server, grpc+tcp://HOST:PORT or grpc+tls://HOST:PORT")
    String uri;

    @Option(names = "--trust", paramLabel = "PEM", description = "certificates to trust for grpc+tls (default: the JVM's)")
    Path trust;

    @Mixin
    LoginOptions login;

    /**
     * Checks the URI and the login, and says how to reach the server.
     *
     * @param ticket the ticket to fetch, or null
     * @param device where fetched batches land
     * @param output the Arrow IPC file to write what arrives to, or null
     * @return the settings of the call
     * @throws picocli.CommandLine.ParameterException a usage error, if the URI is not a Flight address or a user has no password
     * @throws IOException if the password file cannot be read
     */
    FlightFetching.Settings settings(String ticket, Device device, Path output) throws IOException {
        FlightUris.check(mixee, uri);
        String password = login.requiredPassword(mixee);
        return new FlightFetching.Settings(uri, ticket, device, trust, login.user, password, output);
    }
}
