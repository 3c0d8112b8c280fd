package dev.quiver.share;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The last read a test began, kept in a small memory-mapped file so that it survives a JVM that dies in the
 * middle of it (the kernel keeps the written page): after a fork crash, the file names the batch and the step
 * that faulted. Costs a copy of a few bytes per note. One thread.
 */
final class Breadcrumb {
    private static final int SIZE = 512;
    private final MappedByteBuffer page;
    private String batch = "";

    /** @param file the file, created or overwritten */
    Breadcrumb(Path file) {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            page = channel.map(FileChannel.MapMode.READ_WRITE, 0, SIZE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@return a breadcrumb in {@code target/} of the module under test, named {@code name}} */
    static Breadcrumb inTarget(String name) {
        try {
            Path target = Files.createDirectories(Path.of("target"));
            return new Breadcrumb(target.resolve(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Notes the batch being read. */
    void note(String what) {
        batch = what;
        write(what);
    }

    /** Notes the step of the current batch being run. */
    void step(String name) {
        write(batch + ": " + name);
    }

    private void write(String text) {
        byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
        int length = Math.min(bytes.length, SIZE);
        page.put(0, bytes, 0, length);
        for (int i = length; i < SIZE && page.get(i) != 0; i++) {
            page.put(i, (byte) 0);
        }
    }
}
