package dev.quiver.structure;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Finds reflection in Java source text, for modules whose class files a test of {@code api} cannot rely on (they
 * are built after it): member lookups by name ({@code getMethod}, {@code getField}, {@code getConstructor} and
 * their {@code getDeclared} and plural forms), {@code Class.forName}, {@code setAccessible} and
 * {@code MethodHandles.privateLookupIn}. Comments and the contents of string and character literals are skipped.
 *
 * <p>Without types, a name that other APIs use too ({@code getField()} of Arrow Java's vectors, {@code getMethod}
 * of gRPC's service definitions) counts only where what it is called on is a {@code Class}: a class literal, a call
 * that returns one ({@code getClass()}, {@code forName(...)}, {@code asSubclass(...)}, ...), or a name the same file
 * declares with type {@code Class}. The {@code getDeclared} forms, {@code forName}, {@code setAccessible} and
 * {@code privateLookupIn} count wherever they are called. Stateless.
 */
final class SourceReflection {
    /** Calls that are reflection whatever they are called on. */
    private static final Pattern ALWAYS = Pattern.compile(
            "\\.\\s*(getDeclared(?:Method|Field|Constructor)s?|setAccessible|privateLookupIn)\\s*\\(");
    /** {@code Class.forName(...)}, {@code Class::forName} and its static import. */
    private static final Pattern FOR_NAME = Pattern.compile(
            "\\bClass\\s*(?:\\.\\s*forName\\s*\\(|::\\s*forName\\b)|import\\s+static\\s+java\\.lang\\.Class\\.(?:forName|\\*)\\s*;");
    /** Calls that are reflection when they are called on a {@code Class}. */
    private static final Pattern ON_A_CLASS = Pattern.compile("\\.\\s*(get(?:Method|Field|Constructor)s?)\\s*\\(");
    /** Methods whose result is a {@code Class}. */
    private static final Set<String> RETURN_A_CLASS = Set.of("getClass", "forName", "asSubclass", "getSuperclass",
            "getDeclaringClass", "getEnclosingClass", "getComponentType", "componentType", "loadClass", "arrayType");

    private SourceReflection() {}

    /**
     * @param file   how the result names the file
     * @param source the text of a Java source file
     * @return one line per reflective call, {@code "file:line call"}, in the order they appear
     */
    static List<String> in(String file, String source) {
        String code = JavaText.code(source);
        List<Found> found = new ArrayList<>();
        Matcher always = ALWAYS.matcher(code);
        while (always.find()) {
            found.add(new Found(always.start(), always.group(1)));
        }
        Matcher forName = FOR_NAME.matcher(code);
        while (forName.find()) {
            found.add(new Found(forName.start(), "Class.forName"));
        }
        Matcher onAClass = ON_A_CLASS.matcher(code);
        while (onAClass.find()) {
            if (calledOnAClass(code, onAClass.start())) {
                found.add(new Found(onAClass.start(), onAClass.group(1)));
            }
        }
        found.sort((a, b) -> Integer.compare(a.at, b.at));
        return found.stream().map(f -> file + ":" + JavaText.lineOf(code, f.at) + " " + f.call).toList();
    }

    /** @return the call of a line {@link #in} returns: what comes after the position */
    static String call(String line) {
        return line.substring(line.lastIndexOf(' ') + 1);
    }

    private record Found(int at, String call) {}

    /** Whether the expression that ends just before the dot at {@code dot} is a {@code Class}. */
    private static boolean calledOnAClass(String code, int dot) {
        int end = skipSpaceBack(code, dot - 1);
        if (end >= 0 && code.charAt(end) == ')') {
            int open = JavaText.matchingOpen(code, end);
            if (open < 0) {
                return false;
            }
            return RETURN_A_CLASS.contains(JavaText.identifierBefore(code, skipSpaceBack(code, open - 1)));
        }
        String name = JavaText.identifierBefore(code, end);
        if (name.isEmpty()) {
            return false;
        }
        return name.equals("class")
                || Pattern.compile("\\bClass\\s*(?:<[^;{}()=]*?>)?\\s+" + Pattern.quote(name) + "\\b").matcher(code).find();
    }

    private static int skipSpaceBack(String code, int at) {
        while (at >= 0 && Character.isWhitespace(code.charAt(at))) {
            at--;
        }
        return at;
    }
}
