package dev.quiver.plain;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Consumer;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * DuckDB, a real engine that speaks only the plain Arrow C Data interface, through its C API: the native
 * library inside the {@code org.duckdb:duckdb_jdbc} jar, loaded over FFM (its JDBC driver is not used). One
 * in-memory database and connection per instance; close it to disconnect. Confined to one thread.
 */
final class DuckDb implements AutoCloseable {
    private static final String LIBRARY = "libduckdb_java.so_linux_amd64";
    private static final FunctionDescriptor STATE_PTR_PTR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS);
    private static final FunctionDescriptor STATE_PTR_PTR_PTR = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);

    private static final class Api {
        static final SymbolLookup LIB = load();
        static final MethodHandle OPEN = handle("duckdb_open", STATE_PTR_PTR);
        static final MethodHandle CONNECT = handle("duckdb_connect", STATE_PTR_PTR);
        static final MethodHandle QUERY = handle("duckdb_query", STATE_PTR_PTR_PTR);
        static final MethodHandle RESULT_ERROR = handle("duckdb_result_error", FunctionDescriptor.of(ADDRESS, ADDRESS));
        static final MethodHandle DESTROY_RESULT = handle("duckdb_destroy_result", FunctionDescriptor.ofVoid(ADDRESS));
        static final MethodHandle QUERY_ARROW = handle("duckdb_query_arrow", STATE_PTR_PTR_PTR);
        static final MethodHandle ARROW_SCHEMA = handle("duckdb_query_arrow_schema", STATE_PTR_PTR);
        static final MethodHandle ARROW_ARRAY = handle("duckdb_query_arrow_array", STATE_PTR_PTR);
        static final MethodHandle ARROW_ERROR = handle("duckdb_query_arrow_error", FunctionDescriptor.of(ADDRESS, ADDRESS));
        static final MethodHandle DESTROY_ARROW = handle("duckdb_destroy_arrow", FunctionDescriptor.ofVoid(ADDRESS));
        static final MethodHandle ARROW_SCAN = handle("duckdb_arrow_scan", STATE_PTR_PTR_PTR);
        static final MethodHandle DISCONNECT = handle("duckdb_disconnect", FunctionDescriptor.ofVoid(ADDRESS));
        static final MethodHandle CLOSE = handle("duckdb_close", FunctionDescriptor.ofVoid(ADDRESS));

        private static SymbolLookup load() {
            try (InputStream in = DuckDb.class.getClassLoader().getResourceAsStream(LIBRARY)) {
                if (in == null) {
                    throw new IllegalStateException(LIBRARY + " is not on the class path: the org.duckdb:duckdb_jdbc jar is missing");
                }
                Path file = Files.createTempFile("quiver-duckdb-", ".so");
                file.toFile().deleteOnExit();
                Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
                return SymbolLookup.libraryLookup(file, Arena.global());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }

        private static MethodHandle handle(String name, FunctionDescriptor descriptor) {
            return Linker.nativeLinker().downcallHandle(LIB.find(name).orElseThrow(() -> new IllegalStateException(
                    LIBRARY + " exports no " + name)), descriptor);
        }
    }

    private final Arena arena = Arena.ofShared();
    private final MemorySegment database = arena.allocate(ADDRESS);
    private final MemorySegment connection = arena.allocate(ADDRESS);

    DuckDb() {
        try {
            check((int) Api.OPEN.invokeExact(MemorySegment.NULL, database), "duckdb_open");
            check((int) Api.CONNECT.invokeExact(database.get(ADDRESS, 0), connection), "duckdb_connect");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Runs a statement; throws with DuckDB's message if it fails. */
    void execute(String sql) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment result = call.allocate(64, 8);
            int state = (int) Api.QUERY.invokeExact(connection.get(ADDRESS, 0), call.allocateFrom(sql), result);
            try {
                if (state != 0) {
                    MemorySegment error = (MemorySegment) Api.RESULT_ERROR.invokeExact(result);
                    throw new IllegalStateException("DuckDB: " + error.reinterpret(4096).getString(0) + " in: " + sql);
                }
            } finally {
                Api.DESTROY_RESULT.invokeExact(result);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Runs a query and hands each chunk of its result, as a plain ArrowArray and a fresh ArrowSchema (both
     * live, owned by the consumer), to {@code chunk}.
     */
    void queryArrow(String sql, Consumer<MemorySegment[]> chunk) {
        try (Arena call = Arena.ofConfined()) {
            MemorySegment result = call.allocate(ADDRESS);
            int state = (int) Api.QUERY_ARROW.invokeExact(connection.get(ADDRESS, 0), call.allocateFrom(sql), result);
            try {
                if (state != 0) {
                    MemorySegment error = (MemorySegment) Api.ARROW_ERROR.invokeExact(result.get(ADDRESS, 0));
                    throw new IllegalStateException("DuckDB: " + error.reinterpret(4096).getString(0) + " in: " + sql);
                }
                while (true) {
                    MemorySegment array = call.allocate(80, 8);
                    MemorySegment arrayCell = call.allocate(ADDRESS);
                    arrayCell.set(ADDRESS, 0, array);
                    check((int) Api.ARROW_ARRAY.invokeExact(result.get(ADDRESS, 0), arrayCell), "duckdb_query_arrow_array");
                    if (array.get(ADDRESS, 64).equals(MemorySegment.NULL)) {
                        return;   // no array written: the end of the result
                    }
                    MemorySegment schema = call.allocate(72, 8);
                    MemorySegment schemaCell = call.allocate(ADDRESS);
                    schemaCell.set(ADDRESS, 0, schema);
                    check((int) Api.ARROW_SCHEMA.invokeExact(result.get(ADDRESS, 0), schemaCell), "duckdb_query_arrow_schema");
                    chunk.accept(new MemorySegment[] {array, schema});
                }
            } finally {
                Api.DESTROY_ARROW.invokeExact(result);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Registers a plain {@code ArrowArrayStream} as a view DuckDB scans; the struct must stay where it is while
     * the connection is open (DuckDB keeps the pointer and releases the stream when it is done with it).
     */
    void scan(String view, MemorySegment arrowArrayStream) {
        try {
            check((int) Api.ARROW_SCAN.invokeExact(connection.get(ADDRESS, 0), arena.allocateFrom(view), arrowArrayStream), "duckdb_arrow_scan");
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * Releases a stream given to {@link #scan}: DuckDB's C API never does (it copies the struct and leaves the
     * original to the caller), as its {@code duckdb_destroy_arrow_stream} documents.
     */
    static void releaseStream(MemorySegment arrowArrayStream) {
        MemorySegment release = arrowArrayStream.get(ADDRESS, 24);
        if (release.equals(MemorySegment.NULL)) {
            return;
        }
        try {
            Linker.nativeLinker().downcallHandle(release, FunctionDescriptor.ofVoid(ADDRESS)).invokeExact(arrowArrayStream);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return memory that lives as long as this connection */
    Arena arena() {
        return arena;
    }

    @Override
    public void close() {
        try {
            Api.DISCONNECT.invokeExact(connection);
            Api.CLOSE.invokeExact(database);
        } catch (Throwable t) {
            throw rethrow(t);
        } finally {
            arena.close();
        }
    }

    private static void check(int state, String call) {
        if (state != 0) {
            throw new IllegalStateException(call + " failed");
        }
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException e) {
            throw e;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }
}
