package dev.quiver.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Wrapping, cutting and colouring of the commands' text. */
class TextLayoutTest {

    @Test
    void wrapsAtSpacesAndCutsWordsLongerThanALine() {
        assertEquals(List.of("one two", "three"), Wrap.lines("one two three", 8));
        assertEquals(List.of("abcde", "fgh x"), Wrap.lines("abcdefgh x", 5));
        assertEquals(List.of("a", "bcdef", "gh"), Wrap.lines("a bcdefgh", 5));
        assertEquals(List.of(""), Wrap.lines("", 5));
    }

    @Test
    void fitsACellWithAnEllipsis() {
        assertEquals("short", Wrap.fit("short", 10));
        assertEquals("a long...", Wrap.fit("a long device name", 9));
    }

    @Test
    void coloursOnlyATerminalWithoutNoColor() {
        assertTrue(Style.wantsColour(true, null, "xterm-256color"));
        assertTrue(Style.wantsColour(true, "", "xterm"), "an empty NO_COLOR does not count");
        assertFalse(Style.wantsColour(true, "1", "xterm"));
        assertFalse(Style.wantsColour(false, null, "xterm"));
        assertFalse(Style.wantsColour(true, null, "dumb"));
    }

    @Test
    void theJsonStringEscapesQuotesBackslashesAndControls() {
        assertEquals("\"a\\\"b\\\\c\\n\\u0001\"", Json.quote("a\"b\\c\n\u0001"));
    }
}
