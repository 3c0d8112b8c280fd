package dev.quiver.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.URL;
import java.util.Enumeration;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The JDK's own share of a process's first CPU array, with no Quiver code: what any Java library that finds
 * its plugins, logs, and hands C a struct with a release callback has to make the JDK do once per process.
 * It looks up a service file on every class path entry, as {@link java.util.ServiceLoader} does for the
 * device providers; asks {@link System#getLogger} for a logger and whether it logs at {@code DEBUG}; links
 * {@code malloc} and {@code free} and one upcall stub of the release callback's signature, the way Quiver
 * does; and writes three fields of a struct through {@link MemorySegment}. Stateless; run once per JVM, on one
 * thread, for the figures to mean anything.
 */
final class JdkFloor {
    private JdkFloor() {}

    /** Appends the milliseconds since the previous step to a line such as {@code "lookup=14.1 logger=3.9"}. */
    private static final class Steps {
        private final StringBuilder line;
        private long last = System.nanoTime();

        Steps(StringBuilder line) {
            this.line = line;
        }

        void mark(String name) {
            long now = System.nanoTime();
            line.append(line.isEmpty() ? "" : " ").append(name).append('=').append((now - last) / 100_000 / 10.0);
            last = now;
        }
    }

    /**
     * @param steps where each step's milliseconds are appended, {@code name=ms} separated by spaces
     * @return the number of service files found, so that the work cannot be skipped
     */
    static int run(StringBuilder steps) {
        Steps step = new Steps(steps);
        int found = 0;
        try {
            Enumeration<URL> services = ClassLoader.getSystemClassLoader().getResources("META-INF/services/dev.quiver.spi.DeviceProvider");
            while (services.hasMoreElements()) {
                services.nextElement();
                found++;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        step.mark("lookup");
        if (System.getLogger("dev.quiver.devices").isLoggable(System.Logger.Level.DEBUG)) {
            found++;
        }
        step.mark("logger");
        Linker linker = Linker.nativeLinker();
        Linker.Option critical = Linker.Option.critical(false);
        step.mark("linker");
        MethodHandle malloc = linker.downcallHandle(linker.defaultLookup().find("malloc").orElseThrow(),
                FunctionDescriptor.of(JAVA_LONG, JAVA_LONG), critical);
        step.mark("malloc-link");
        MethodHandle free = linker.downcallHandle(linker.defaultLookup().find("free").orElseThrow(),
                FunctionDescriptor.ofVoid(JAVA_LONG), critical);
        step.mark("free-link");
        try {
            MethodHandle release = MethodHandles.lookup().findStatic(JdkFloor.class, "release", MethodType.methodType(void.class, long.class));
            MemorySegment stub = linker.upcallStub(release, FunctionDescriptor.ofVoid(JAVA_LONG), Arena.global());
            step.mark("upcall");
            long struct = (long) malloc.invokeExact(80L);
            MemorySegment fields = MemorySegment.ofAddress(struct).reinterpret(80);
            fields.set(JAVA_LONG, 0, 3L);
            fields.set(JAVA_LONG, 64, stub.address());
            fields.set(JAVA_LONG, 72, 0L);
            step.mark("struct");
            free.invokeExact(struct);
            step.mark("free");
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        return found;
    }

    /** The release callback's target, never called. */
    private static void release(long struct) {
        // never called: the struct is freed directly
    }
}
