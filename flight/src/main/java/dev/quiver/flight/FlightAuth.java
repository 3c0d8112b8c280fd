package dev.quiver.flight;

import org.apache.arrow.flight.CallOption;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.auth2.BasicCallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.CallHeaderAuthenticator;
import org.apache.arrow.flight.auth2.BearerCredentialWriter;
import org.apache.arrow.flight.auth2.GeneratedBearerTokenAuthenticator;
import org.apache.arrow.flight.grpc.CredentialCallOption;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Authentication through Arrow Flight's call-header middleware: a client first presents a user and password
 * (HTTP basic), the server answers with a bearer token it generated, and every later call carries that
 * token. A call without valid credentials or token is refused with {@code UNAUTHENTICATED} before it reaches
 * the producer, so with it nothing a server serves (streams, listings, puts) is reachable without logging in.
 * Give the result to {@code FlightServer.Builder.headerAuthenticator}; clients log in with
 * {@link DeviceFlightClient.Builder#basicAuth} (or Flight's {@code FlightClient.authenticateBasicToken}).
 *
 * <p>Thread-safe: Flight calls the authenticator on its call threads.
 */
public final class FlightAuth {
    private FlightAuth() {}

    /**
     * {@return an authenticator issuing bearer tokens after a basic login}
     * @param user     the one user allowed
     * @param password its password, compared in constant time
     */
    public static CallHeaderAuthenticator basicThenBearer(String user, String password) {
        byte[] expectedUser = Objects.requireNonNull(user, "user").getBytes(StandardCharsets.UTF_8);
        byte[] expectedPassword = Objects.requireNonNull(password, "password").getBytes(StandardCharsets.UTF_8);
        BasicCallHeaderAuthenticator basic = new BasicCallHeaderAuthenticator((givenUser, givenPassword) -> {
            boolean userMatches = MessageDigest.isEqual(expectedUser, givenUser.getBytes(StandardCharsets.UTF_8));
            boolean passwordMatches = MessageDigest.isEqual(expectedPassword, givenPassword.getBytes(StandardCharsets.UTF_8));
            if (!(userMatches && passwordMatches)) {
                throw CallStatus.UNAUTHENTICATED.withDescription("wrong user or password").toRuntimeException();
            }
            return () -> givenUser;
        });
        return new GeneratedBearerTokenAuthenticator(basic);
    }

    /**
     * The credentials a client sends on every call: the bearer token the server returns for a login with
     * {@code user} and {@code password} (made here, once), and {@code token} where given.
     *
     * @param client   the client, connected
     * @param user     the user to log in as, or null for no login
     * @param password the password
     * @param token    a bearer token the server issued, or null
     * @return the call options, possibly none
     * @throws org.apache.arrow.flight.FlightRuntimeException if the login is refused
     * @throws FlightTransferException if the server accepts the login but returns no token
     */
    static CallOption[] clientCredentials(FlightClient client, String user, String password, String token) {
        List<CallOption> options = new ArrayList<>();
        if (user != null) {
            options.add(client.authenticateBasicToken(user, password).orElseThrow(() ->
                    new FlightTransferException("the server accepted the login but returned no bearer token", null)));
        }
        if (token != null) {
            options.add(new CredentialCallOption(new BearerCredentialWriter(token)));
        }
        return options.toArray(CallOption[]::new);
    }
}
