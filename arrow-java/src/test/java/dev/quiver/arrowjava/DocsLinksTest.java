package dev.quiver.arrowjava;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The README and the pages under {@code docs/} link only inside the repository, and every link arrives: its file
 * or folder exists, and a {@code #section} names a heading of its page (as GitHub makes the anchors). Code, fenced
 * or inline, is not text and is not read for links.
 */
class DocsLinksTest {
    private static final Pattern INLINE_LINK = Pattern.compile("\\]\\(([^)\\s]*)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern REFERENCE_LINK = Pattern.compile("^\\s*\\[[^\\]]+\\]:\\s*(\\S+)");
    private static final Pattern OUTSIDE = Pattern.compile("(?i)\\b(?:https?|ftp|mailto):|(?<![\\w.])www\\.");
    private static final Pattern CODE_SPAN = Pattern.compile("(`+)(?:(?!\\1).)+?\\1");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");

    @Test
    void everyLinkStaysInTheRepositoryAndArrives() throws IOException {
        Map<Path, Set<String>> anchors = new HashMap<>();
        List<String> broken = new ArrayList<>();
        int links = 0;
        for (Path page : DocPages.all()) {
            List<String> text = textLines(Files.readAllLines(page));
            for (int i = 0; i < text.size(); i++) {
                String line = text.get(i);
                String where = DocPages.name(page) + ":" + (i + 1);
                if (OUTSIDE.matcher(line).find()) {
                    broken.add(where + " links outside the repository: " + line.strip());
                    continue;
                }
                for (String target : targets(line)) {
                    links++;
                    String problem = problem(page, target, anchors);
                    if (problem != null) {
                        broken.add(where + " " + target + ": " + problem);
                    }
                }
            }
        }
        assertFalse(links == 0, "found no links at all in the README and docs/");
        assertEquals(List.of(), broken, "links that leave the repository or arrive nowhere");
    }

    @Test
    void anchorsAreMadeAsGitHubMakesThem() {
        Set<String> made = anchorsOf(List.of("# Quiver", "## Set up", "### Device IPC handles (`CUDA_IPC`, `VULKAN_FD`)",
                "## Set up", "## Memory: pools, pinned host memory and stream order"));
        assertEquals(Set.of("quiver", "set-up", "device-ipc-handles-cuda_ipc-vulkan_fd", "set-up-1",
                "memory-pools-pinned-host-memory-and-stream-order"), made);
    }

    /** @return why the link does not arrive, or null when it does */
    private static String problem(Path page, String target, Map<Path, Set<String>> anchors) throws IOException {
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        Path file = path.isEmpty() ? page : page.getParent().resolve(path).normalize();
        if (!file.startsWith(DocPages.root())) {
            return "leaves the repository";
        }
        if (!Files.exists(file)) {
            return "no such file or folder";
        }
        if (hash < 0) {
            return null;
        }
        if (!file.toString().endsWith(".md") || Files.isDirectory(file)) {
            return "a section of a file that is not Markdown";
        }
        Set<String> known = anchors.get(file);
        if (known == null) {
            known = anchorsOf(Files.readAllLines(file));
            anchors.put(file, known);
        }
        return known.contains(target.substring(hash + 1)) ? null : "no such section in " + DocPages.name(file);
    }

    private static List<String> targets(String line) {
        List<String> found = new ArrayList<>();
        Matcher inline = INLINE_LINK.matcher(line);
        while (inline.find()) {
            found.add(inline.group(1));
        }
        Matcher reference = REFERENCE_LINK.matcher(line);
        if (reference.find()) {
            found.add(reference.group(1));
        }
        return found;
    }

    /** The lines with fenced blocks blanked and inline code removed, so that only text is read. */
    private static List<String> textLines(List<String> lines) {
        List<String> text = new ArrayList<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                text.add("");
            } else {
                text.add(fenced ? "" : CODE_SPAN.matcher(line).replaceAll("code"));
            }
        }
        return text;
    }

    /** GitHub's anchors of a page's headings: lower case, punctuation but {@code -} and {@code _} dropped, spaces as {@code -}, repeats numbered. */
    private static Set<String> anchorsOf(List<String> lines) {
        Set<String> anchors = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        boolean fenced = false;
        for (String line : lines) {
            if (line.strip().startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (fenced || !heading.matches()) {
                continue;
            }
            String slug = heading.group(1).toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N} _-]", "").replace(' ', '-');
            int repeats = seen.merge(slug, 1, Integer::sum) - 1;
            anchors.add(repeats == 0 ? slug : slug + "-" + repeats);
        }
        return anchors;
    }
}
