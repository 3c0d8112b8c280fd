package dev.quiver.cli.flight;

import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * The options every {@code quiver flight} client command takes (get, list, put), as a picocli mixin: the
 * certificates to trust for TLS ({@code --trust}) and the login ({@link LoginOptions}, which the server shares).
 */
final class ClientOptions {
    @Option(names = "--trust", paramLabel = "PEM", description = "certificates to trust for grpc+tls (default: the JVM's)")
    Path trust;

    @Mixin
    LoginOptions login;
}
