package dev.quiver.flight;

import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Issued tickets are unguessable, printable, and never start with {@code -} (a command line would read an option). */
class TicketsTest {
    @Test
    void issuedTicketsNeverStartWithADashAndReadBackAsPrinted() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            String text = Tickets.describe(Tickets.issue());
            assertTrue(text.matches("q[A-Za-z0-9_-]{32}"), text);
            assertTrue(seen.add(text), "unique: " + text);
            assertEquals(text, Tickets.describe(Tickets.parse(text)));
        }
    }
}
