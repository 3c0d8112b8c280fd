package dev.quiver.flight;

import org.apache.arrow.flight.Ticket;

import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Tickets as the server issues them: 24 random bytes from {@link SecureRandom}, base64url-encoded so that a
 * ticket can be typed on a command line. A ticket cannot be guessed, so only a client the server (or its
 * listing, behind authentication) gave one to can fetch a stream. Thread-safe.
 */
public final class Tickets {
    private static final SecureRandom RANDOM = new SecureRandom();

    private Tickets() {}

    /**
     * @return a new, unguessable ticket: {@code q} and 24 random bytes in URL-safe base64. The leading letter
     *         keeps a ticket from starting with {@code -}, which a command line would read as an option
     *         ({@code quiver flight get URI TICKET}).
     */
    static Ticket issue() {
        byte[] secret = new byte[24];
        RANDOM.nextBytes(secret);
        return new Ticket(("q" + Base64.getUrlEncoder().withoutPadding().encodeToString(secret)).getBytes(StandardCharsets.US_ASCII));
    }

    /**
     * {@return the ticket}
     * @param text a ticket as {@link #describe} prints an issued one
     */
    public static Ticket parse(String text) {
        return new Ticket(text.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * {@return its text if it is printable ASCII (as issued tickets are), else {@code 0x} and its bytes in hex}
     * @param ticket any ticket
     */
    public static String describe(Ticket ticket) {
        byte[] bytes = ticket.getBytes();
        for (byte b : bytes) {
            if (b < 0x21 || b > 0x7e) {
                return "0x" + HexFormat.of().formatHex(bytes);
            }
        }
        return new String(bytes, StandardCharsets.US_ASCII);
    }
}
