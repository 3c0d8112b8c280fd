package dev.quiver.share;

import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The Java blocks of the README and the docs pages marked {@code <!-- runs in: share -->}, compiled and run here
 * on this module's class path by the harness of quiver-arrow-java's {@code ReadmeExamplesTest} (from its test jar), which runs every
 * other block: each compiles, returns normally and releases all it exported. The harness is reached by name:
 * this module's tests compile inside {@code dev.quiver.share}, which cannot read the class path's packages.
 */
class ShareReadmeExamplesTest {
    private static final Optional<String> SHARE = Optional.of("share");

    @TestFactory
    Stream<DynamicTest> everyShareBlockCompilesAndRuns() throws ReflectiveOperationException {
        Class<?> block = Class.forName("dev.quiver.arrowjava.ReadmeBlock");
        Method describe = block.getDeclaredMethod("describe");
        describe.setAccessible(true);
        Method check = Class.forName("dev.quiver.arrowjava.ReadmeBlockRun").getDeclaredMethod("check", block);
        check.setAccessible(true);
        return blocks().stream().map(each -> DynamicTest.dynamicTest(describe(describe, each), () -> {
            try {
                check.invoke(null, each);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }));
    }

    @Test
    void theDocsHaveShareBlocks() throws ReflectiveOperationException {
        assertFalse(blocks().isEmpty(), "the README and docs/ have blocks marked <!-- runs in: share -->");
    }

    private static List<?> blocks() throws ReflectiveOperationException {
        return (List<?>) Class.forName("dev.quiver.arrowjava.ReadmeExamplesTest").getMethod("blocksRunningIn", Optional.class)
                .invoke(null, SHARE);
    }

    private static String describe(Method describe, Object block) {
        try {
            return (String) describe.invoke(block);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
