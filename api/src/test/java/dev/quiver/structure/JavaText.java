package dev.quiver.structure;

/**
 * Java source text without what a text scan must not read as code: comments become spaces, and so do the contents
 * of string literals, text blocks and character literals (their quotes stay). Line breaks stay where they were, so
 * positions and line numbers are those of the source. Stateless.
 */
final class JavaText {
    private JavaText() {}

    /**
     * @param source the text of a Java source file
     * @return the same text with comments and literal contents blanked, of the same length
     */
    static String code(String source) {
        StringBuilder out = new StringBuilder(source.length());
        int i = 0;
        int n = source.length();
        while (i < n) {
            char c = source.charAt(i);
            if (c == '/' && i + 1 < n && source.charAt(i + 1) == '/') {
                while (i < n && source.charAt(i) != '\n') {
                    out.append(' ');
                    i++;
                }
            } else if (c == '/' && i + 1 < n && source.charAt(i + 1) == '*') {
                int end = source.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
                blank(source, i, end, out);
                i = end;
            } else if (source.startsWith("\"\"\"", i) || c == '"' || c == '\'') {
                String quote = source.startsWith("\"\"\"", i) ? "\"\"\"" : String.valueOf(c);
                int contents = i + quote.length();
                int close = closing(source, contents, quote);
                out.append(quote);
                blank(source, contents, close < 0 ? lineEnd(source, contents, quote) : close, out);
                i = close < 0 ? lineEnd(source, contents, quote) : close + quote.length();
                if (close >= 0) {
                    out.append(quote);
                }
            } else {
                out.append(c);
                i++;
            }
        }
        return out.toString();
    }

    /** @return where the unescaped {@code quote} that closes a literal whose contents start at {@code from} is, or -1 */
    private static int closing(String source, int from, String quote) {
        int i = from;
        while (i < source.length()) {
            if (source.charAt(i) == '\\') {
                i += 2;
            } else if (source.startsWith(quote, i)) {
                return i;
            } else if (quote.length() == 1 && source.charAt(i) == '\n') {
                return -1;   // an unterminated literal: javac would refuse it
            } else {
                i++;
            }
        }
        return -1;
    }

    /** @return where an unterminated literal is taken to end: its line for a string or character, the text for a block */
    private static int lineEnd(String source, int from, String quote) {
        int end = quote.length() == 1 ? source.indexOf('\n', from) : -1;
        return end < 0 ? source.length() : end;
    }

    private static void blank(String source, int from, int to, StringBuilder out) {
        for (int i = from; i < Math.min(to, source.length()); i++) {
            out.append(source.charAt(i) == '\n' ? '\n' : ' ');
        }
    }

    /** @return the 1-based line of the character at {@code at} */
    static int lineOf(String text, int at) {
        int line = 1;
        for (int i = 0; i < at; i++) {
            if (text.charAt(i) == '\n') {
                line++;
            }
        }
        return line;
    }

    /** @return the index of the {@code (} that the {@code )} at {@code close} closes, or -1 */
    static int matchingOpen(String code, int close) {
        int depth = 0;
        for (int i = close; i >= 0; i--) {
            char c = code.charAt(i);
            if (c == ')') {
                depth++;
            } else if (c == '(' && --depth == 0) {
                return i;
            }
        }
        return -1;
    }

    /** @return the Java identifier that ends at {@code end} (inclusive), or "" if none does */
    static String identifierBefore(String code, int end) {
        int start = end;
        while (start >= 0 && Character.isJavaIdentifierPart(code.charAt(start))) {
            start--;
        }
        return end < 0 ? "" : code.substring(start + 1, end + 1);
    }
}
