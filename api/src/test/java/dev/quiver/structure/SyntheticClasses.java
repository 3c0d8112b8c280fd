package dev.quiver.structure;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.spi.ToolProvider;

/** Compiles small Java sources with the running JDK's compiler, to give the structure checks known input. */
final class SyntheticClasses {
    private SyntheticClasses() {}

    /**
     * @param directory an empty directory; sources and classes are written under it
     * @param sources   source text by binary class name, for example {@code "a.A"}
     * @return the compiled classes
     * @throws IllegalStateException if the sources do not compile, with the compiler's messages
     */
    static List<ClassFile> compile(Path directory, Map<String, String> sources) {
        try {
            Path src = Files.createDirectories(directory.resolve("src"));
            Path out = Files.createDirectories(directory.resolve("classes"));
            List<String> arguments = new ArrayList<>(List.of("--release", "22", "-d", out.toString()));
            for (Map.Entry<String, String> source : sources.entrySet()) {
                Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
                Files.createDirectories(file.getParent());
                Files.writeString(file, source.getValue());
                arguments.add(file.toString());
            }
            ToolProvider javac = ToolProvider.findFirst("javac")
                    .orElseThrow(() -> new IllegalStateException("this JDK has no javac tool"));
            StringWriter messages = new StringWriter();
            PrintWriter writer = new PrintWriter(messages);
            int status = javac.run(writer, writer, arguments.toArray(String[]::new));
            writer.flush();
            if (status != 0) {
                throw new IllegalStateException("the synthetic sources do not compile:\n" + messages);
            }
            return CompiledClasses.under(out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
