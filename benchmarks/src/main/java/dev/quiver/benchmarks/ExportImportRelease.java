package dev.quiver.benchmarks;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.arrowjava.VectorImport;
import dev.quiver.baselines.BenchBatches;
import dev.quiver.baselines.CBaselines;
import org.apache.arrow.c.ArrowArray;
import org.apache.arrow.c.ArrowSchema;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.c.Data;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.Param;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;


/**
 * Export + import + release of one record batch on the CPU through the C Data Interface, zero-copy:
 * <ul>
 *   <li>{@link #quiver}: {@link Interchange#exportShared} into an ArrowDeviceArray + ArrowSchema, then
 *       {@link Interchange#importDevice} (moves, parses the schema, validates the structs) and close (release);</li>
 *   <li>{@link #arrowJava}: Arrow Java's C Data Interface on a {@code VectorSchemaRoot} holding the same
 *       batch (arrow-c-data {@code Data.exportVectorSchemaRoot} into struct memory allocated once, like
 *       Quiver's, then {@code Data.importVectorSchemaRoot} and close, which releases);</li>
 *   <li>{@link #c}: the same work done by C compiled with gcc -O2, allocator calls kept
 *       ({@code bench_export_import.c}, {@link CBaselines#exportImportRelease}):
 *       build the struct trees over the existing buffers, move them in, check every node, release; one
 *       downcall runs {@value #C_ITERATIONS} iterations.</li>
 * </ul>
 * Times are per batch. State is per benchmark thread.
 */
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
    "-Dio.netty.noUnsafe=false", "--sun-misc-unsafe-memory-access=allow"})
public class ExportImportRelease extends BenchmarkState {
    static final int C_ITERATIONS = 100;
    private static final Devices NONE = Devices.cpuOnly();

    /** Column type. */
    @Param({"int32", "utf8", "list_int64", "struct"})
    public String shape;
    /** Columns in the batch. */
    @Param({"1", "64"})
    public int columns;
    /** Rows in the batch. */
    @Param({"0", "1000", "1000000"})
    public int rows;

    private DeviceArray batch;
    private MemorySegment deviceArray;
    private MemorySegment schema;
    private MemorySegment cView;
    private MemorySegment cSchema;
    private BufferAllocator allocator;
    private VectorSchemaRoot root;
    private MemorySegment javaArray;
    private MemorySegment javaSchema;

    /** Builds the batch once; the benchmark moves only structs. */
    @Override
    protected void setUp() {
        batch = BenchBatches.batch(shape, columns, rows).toDeviceArray(NONE);
        Arena arena = arena();
        deviceArray = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
        schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
        cView = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
        cSchema = arena.allocate(ArrowSchemaLayout.LAYOUT);
        Interchange.exportShared(batch, cView, cSchema);
        allocator = new RootAllocator();
        try (DeviceArray copy = BenchBatches.batch(shape, columns, rows).toDeviceArray(NONE)) {
            root = VectorImport.toVectorSchemaRoot(copy, allocator, new CDataDictionaryProvider());
        }
        javaArray = arena.allocate(ArrowArrayLayout.LAYOUT);
        javaSchema = arena.allocate(ArrowSchemaLayout.LAYOUT);
    }

    /** Releases the batch and the view the C baseline reads. */
    @Override
    protected void tearDown() {
        Interchange.importDevice(cView, cSchema, ImportOptions.on(NONE)).close();
        batch.close();
        root.close();
        allocator.close();
    }

    /** {@return a confined arena: the structs are used on the benchmark thread alone} */
    @Override
    protected Arena openArena() {
        return Arena.ofConfined();
    }

    /** @return the number of rows imported, so the work is not dead */
    @Benchmark
    public long quiver() {
        Interchange.exportShared(batch, deviceArray, schema);
        try (DeviceArray imported = Interchange.importDevice(deviceArray, schema, ImportOptions.on(NONE))) {
            return imported.length();
        }
    }

    /** @return the number of rows imported */
    @Benchmark
    public long arrowJava() {
        ArrowArray array = ArrowArray.wrap(javaArray.address());
        ArrowSchema schema = ArrowSchema.wrap(javaSchema.address());
        Data.exportVectorSchemaRoot(allocator, root, null, array, schema);
        try (VectorSchemaRoot imported = Data.importVectorSchemaRoot(allocator, array, schema, null)) {
            return imported.getRowCount();
        }
    }

    /** @return the nodes the C consumer checked */
    @Benchmark
    @OperationsPerInvocation(C_ITERATIONS)
    public long c() {
        return CBaselines.exportImportRelease(cView.asSlice(ArrowDeviceArrayLayout.ARRAY, ArrowArrayLayout.LAYOUT.byteSize()), cSchema, C_ITERATIONS);
    }
}
