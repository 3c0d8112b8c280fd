package dev.quiver.cli;

import dev.quiver.ProviderReport;

import java.io.Console;

/**
 * Whether and how output is coloured: only when standard output is a terminal, {@code NO_COLOR} is unset
 * or empty (see no-color.org) and {@code TERM} is not {@code dumb}. Immutable; thread-safe.
 *
 * @param colour true to write ANSI colour codes
 */
record Style(boolean colour) {
    private static final String RESET = "\u001b[0m";

    /** @return the style for this process's terminal and environment */
    static Style detect() {
        Console console = System.console();
        return new Style(wantsColour(console != null && console.isTerminal(), System.getenv("NO_COLOR"), System.getenv("TERM")));
    }

    /**
     * @param terminal whether standard output is a terminal
     * @param noColor  the value of {@code NO_COLOR}, or null
     * @param term     the value of {@code TERM}, or null
     * @return true if output should be coloured
     */
    static boolean wantsColour(boolean terminal, String noColor, String term) {
        return terminal && (noColor == null || noColor.isEmpty()) && !"dumb".equals(term);
    }

    /**
     * @param status a provider's status
     * @param text   the text to show for it
     * @return {@code text}, coloured by status when colour is on
     */
    String status(ProviderReport.Status status, String text) {
        return paint(switch (status) {
            case USABLE -> "\u001b[32m";
            case UNAVAILABLE -> "\u001b[33m";
            case FAILED -> "\u001b[31m";
            case EXCLUDED -> "\u001b[2m";
        }, text);
    }

    /** @return {@code text} dimmed when colour is on */
    String dim(String text) {
        return paint("\u001b[2m", text);
    }

    private String paint(String code, String text) {
        return colour ? code + text + RESET : text;
    }
}
