package dev.quiver.arrowjava;

import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.FileObject;
import javax.tools.ForwardingJavaFileManager;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileManager;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.ToolProvider;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Compiles a {@link ReadmeProgram} in-process with the system Java compiler, for release 22 against this
 * JVM's class path (the test class path: the module, Arrow Java and the CPU backend), and loads the classes
 * in a class loader of their own whose parent is this class's loader. Nothing is written to disk.
 */
final class ReadmeCompiler {
    private ReadmeCompiler() {}

    /**
     * @param program the program
     * @return the program's class, loaded
     * @throws AssertionError naming the Markdown line of every compiler error, if it does not compile
     * @throws IOException    if the compiler's file manager cannot be closed
     */
    static Class<?> compileAndLoad(ReadmeProgram program) throws IOException, ClassNotFoundException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        Map<String, ByteArrayOutputStream> classes = new HashMap<>();
        List<String> options = List.of("--release", "22", "-proc:none", "-classpath", System.getProperty("java.class.path"));
        boolean compiled;
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, null, StandardCharsets.UTF_8)) {
            compiled = compiler.getTask(null, new ClassesInMemory(files, classes), diagnostics, options, null,
                    List.of(new SourceInMemory(program))).call();
        }
        if (!compiled) {
            throw new AssertionError("does not compile:\n" + diagnostics.getDiagnostics().stream()
                    .filter(d -> d.getKind() == Diagnostic.Kind.ERROR)
                    .map(d -> "  " + program.where(d.getLineNumber()) + ": " + d.getMessage(null))
                    .collect(Collectors.joining("\n")));
        }
        return new BytesClassLoader(classes, ReadmeCompiler.class.getClassLoader()).loadClass(program.className());
    }

    /** The generated source, held in memory. */
    private static final class SourceInMemory extends SimpleJavaFileObject {
        private final String source;

        SourceInMemory(ReadmeProgram program) {
            super(URI.create("string:///" + program.className() + Kind.SOURCE.extension), Kind.SOURCE);
            this.source = program.source();
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            return source;
        }
    }

    /** Sends every class file the compiler writes into a map of binary name to bytes. */
    private static final class ClassesInMemory extends ForwardingJavaFileManager<JavaFileManager> {
        private final Map<String, ByteArrayOutputStream> classes;

        ClassesInMemory(JavaFileManager files, Map<String, ByteArrayOutputStream> classes) {
            super(files);
            this.classes = classes;
        }

        @Override
        public JavaFileObject getJavaFileForOutput(Location location, String className, JavaFileObject.Kind kind, FileObject sibling) {
            return new SimpleJavaFileObject(URI.create("mem:///" + className.replace('.', '/') + kind.extension), kind) {
                @Override
                public OutputStream openOutputStream() {
                    return classes.computeIfAbsent(className, name -> new ByteArrayOutputStream());
                }
            };
        }
    }

    /** Defines the compiled classes; everything else comes from the parent. */
    private static final class BytesClassLoader extends ClassLoader {
        private final Map<String, ByteArrayOutputStream> classes;

        BytesClassLoader(Map<String, ByteArrayOutputStream> classes, ClassLoader parent) {
            super(parent);
            this.classes = classes;
        }

        @Override
        protected Class<?> findClass(String name) throws ClassNotFoundException {
            ByteArrayOutputStream bytes = classes.get(name);
            if (bytes == null) {
                throw new ClassNotFoundException(name);
            }
            byte[] code = bytes.toByteArray();
            return defineClass(name, code, 0, code.length);
        }
    }
}
