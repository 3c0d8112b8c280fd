package dev.quiver.arrowjava;

import dev.quiver.Diagnostics;
import dev.quiver.dlpack.DLPack;

import java.lang.reflect.InvocationTargetException;
import java.util.Arrays;
import java.util.Optional;

/**
 * Compiles a block of the README or a docs page and, unless it is marked compile-only, runs it on the calling
 * thread. A block passes when it compiles, returns normally, and leaves behind no Quiver export or DLPack tensor
 * whose release was not called and no failed release callback. Every failure names the block's file and fence
 * line and the line at fault.
 */
final class ReadmeBlockRun {
    private ReadmeBlockRun() {}

    /**
     * @param block the block
     * @throws AssertionError if the block fails as described above
     */
    static void check(ReadmeBlock block) throws Exception {
        ReadmeProgram program = ReadmeProgram.of(block);
        Class<?> compiled;
        try {
            compiled = ReadmeCompiler.compileAndLoad(program);
        } catch (AssertionError notCompiled) {
            throw new AssertionError(block.describe() + " " + notCompiled.getMessage());
        }
        if (block.compileOnlyWhy().isPresent()) {
            return;
        }
        long exports = Diagnostics.liveExports();
        long tensors = DLPack.liveExports();
        long callbackFailures = Diagnostics.callbackFailures();
        try {
            if (program.complete()) {
                compiled.getMethod("main", String[].class).invoke(null, (Object) new String[0]);
            } else {
                compiled.getMethod("run").invoke(null);
            }
        } catch (InvocationTargetException thrown) {
            Throwable cause = thrown.getCause();
            throw new AssertionError(block.describe() + " threw at " + where(cause, program) + ": " + cause, cause);
        }
        expectUnchanged(block, "Quiver exports whose release was not called", exports, Diagnostics.liveExports());
        expectUnchanged(block, "DLPack tensors whose deleter was not called", tensors, DLPack.liveExports());
        expectUnchanged(block, "release callbacks that failed", callbackFailures, Diagnostics.callbackFailures());
    }

    private static String where(Throwable thrown, ReadmeProgram program) {
        Optional<StackTraceElement> inBlock = Arrays.stream(thrown.getStackTrace())
                .filter(frame -> frame.getClassName().equals(program.className()) && frame.getLineNumber() > 0)
                .findFirst();
        return inBlock.map(frame -> program.where(frame.getLineNumber()))
                .orElse("a line it calls into");
    }

    private static void expectUnchanged(ReadmeBlock block, String what, long before, long after) {
        if (before != after) {
            throw new AssertionError(block.describe() + " left " + (after - before) + " " + what);
        }
    }
}
