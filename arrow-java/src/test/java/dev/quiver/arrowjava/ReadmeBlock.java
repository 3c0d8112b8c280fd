package dev.quiver.arrowjava;

import java.util.List;
import java.util.Optional;

/**
 * One {@code ```java} block of a Markdown file, with where it stands in that file.
 *
 * @param page           the file the block stands in, as failures name it ({@code README.md},
 *                       {@code docs/guides/flight.md})
 * @param fenceLine       the 1-based line of the opening {@code ```java} fence
 * @param lines           the block's lines, without the fences; the first is line {@code fenceLine + 1}
 * @param compileOnlyWhy the reason given by a {@code <!-- compile-only: reason -->} comment right before the
 *                        fence, if there is one: such a block is compiled but not run
 * @param runsIn          the module named by a {@code <!-- runs in: module -->} comment right before the fence,
 *                        if there is one: that module's tests compile and run the block, on its class path
 *                        (this module's run the others)
 */
public record ReadmeBlock(String page, int fenceLine, List<String> lines, Optional<String> compileOnlyWhy, Optional<String> runsIn) {
    /** Copies the lines. */
    public ReadmeBlock {
        lines = List.copyOf(lines);
    }

    /** @return the 1-based file line of the block's line at {@code index} (0-based) */
    int fileLine(int index) {
        return fenceLine + 1 + index;
    }

    /** @return how a failure names this block */
    String describe() {
        return page + " block at line " + fenceLine;
    }
}
