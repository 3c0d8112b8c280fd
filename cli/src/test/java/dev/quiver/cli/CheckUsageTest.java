package dev.quiver.cli;

import dev.quiver.testkit.CLibrary;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code quiver check} usage errors end with exit code 2 and say what was wrong on standard error. */
class CheckUsageTest {

    @Test
    void missingArguments() {
        CommandRun run = CommandRun.of("check");
        assertEquals(2, run.code());
        assertTrue(run.err().contains("Missing required parameters: '<library.so>', '<function>'"), run.err());
    }

    @Test
    void schemaAndStreamTogether() {
        CommandRun run = CommandRun.of("check", CheckProducers.path(), "stream_batches", "--stream", "--schema");
        assertEquals(2, run.code());
        assertTrue(run.err().contains("--schema and --stream exclude each other"), run.err());
    }

    @Test
    void noSuchLibrary() {
        CommandRun run = CommandRun.of("check", "/nonexistent/libnothing.so", "f");
        assertEquals(2, run.code());
        assertTrue(run.err().contains("no such library: /nonexistent/libnothing.so"), run.err());
    }

    @Test
    void noSuchFunction() {
        CommandRun run = CommandRun.of("check", CheckProducers.path(), "no_such_producer");
        assertEquals(2, run.code());
        assertTrue(run.err().contains("exports no symbol no_such_producer"), run.err());
    }

    @Test
    void aLibraryThatCannotBeLoaded() {
        Path library = CLibrary.compileOnly(List.of(new CLibrary.Source("unresolved.c",
                "extern int quiver_no_such_symbol;\nint f(void) { return quiver_no_such_symbol; }\n")), List.of());
        CommandRun run = CommandRun.of("check", library.toString(), "f");
        assertEquals(2, run.code());
        assertTrue(run.err().contains("cannot load " + library), run.err());
    }
}
