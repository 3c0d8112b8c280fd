package dev.quiver.cli.flight;

import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.util.concurrent.Callable;

/** {@code quiver flight list}: the streams a server serves, one line each, as {@code flight serve} prints them. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"List the streams an Arrow Flight server serves: name, ticket and rows.",
                "With --user, logs in with that user and the password in $QUIVER_FLIGHT_PASSWORD (or --password-file)."})
final class FlightListCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "URI", description = "the server, grpc+tcp://HOST:PORT or grpc+tls://HOST:PORT")
    String uri;

    @Mixin
    ClientOptions client;

    @Override
    public Integer call() throws Exception {
        FlightUris.check(spec, uri);
        String password = client.login.requiredPassword(spec);
        FlightFetching.Settings settings = new FlightFetching.Settings(uri, null, "cpu", client.trust, client.login.user, password, null);
        return FlightCalls.list(settings, spec.commandLine().getOut(), spec.commandLine().getErr());
    }
}
