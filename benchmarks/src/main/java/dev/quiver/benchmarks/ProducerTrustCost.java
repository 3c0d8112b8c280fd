package dev.quiver.benchmarks;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.ProducerTrust;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.baselines.BenchBatches;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * What checking a producer's pointers costs: the same export + import + release of one CPU record batch
 * as {@code ExportImportRelease.quiver}, imported with {@link ProducerTrust#TRUSTED} (counts and formats
 * checked, pointers trusted) and with {@link ProducerTrust#UNTRUSTED} (every struct, pointer array, string
 * and host buffer range also checked against the process's readable mappings); and
 * {@link Interchange#validateFull(DeviceArray)} of the imported batch, which reads the data and checks its ranges the
 * same way. Times are per batch.
 */
public class ProducerTrustCost extends BenchmarkState {
    private static final Devices NONE = Devices.cpuOnly();

    /** Column type. */
    @Param({"int32", "utf8", "struct"})
    public String shape;
    /** Columns in the batch. */
    @Param({"1", "64"})
    public int columns;
    /** Rows in the batch. */
    @Param({"1000"})
    public int rows;

    private DeviceArray batch;
    private MemorySegment deviceArray;
    private MemorySegment schema;

    /** Builds the batch once; the import benchmarks move only structs. */
    @Override
    protected void setUp() {
        batch = BenchBatches.batch(shape, columns, rows).toDeviceArray(NONE);
        deviceArray = arena().allocate(ArrowDeviceArrayLayout.LAYOUT);
        schema = arena().allocate(ArrowSchemaLayout.LAYOUT);
    }

    /** Releases the batch. */
    @Override
    protected void tearDown() {
        batch.close();
    }

    /** {@return a confined arena: the structs are used on the benchmark thread alone} */
    @Override
    protected Arena openArena() {
        return Arena.ofConfined();
    }

    /** @return the rows imported */
    @Benchmark
    public long trusted() {
        return importOnce(ProducerTrust.TRUSTED);
    }

    /** @return the rows imported */
    @Benchmark
    public long untrusted() {
        return importOnce(ProducerTrust.UNTRUSTED);
    }

    /** @return the rows validated */
    @Benchmark
    public long validateFull() {
        Interchange.validateFull(batch);
        return batch.length();
    }

    private long importOnce(ProducerTrust trust) {
        Interchange.exportShared(batch, deviceArray, schema);
        try (DeviceArray imported = Interchange.importDevice(deviceArray, schema, ImportOptions.on(NONE).trust(trust))) {
            return imported.length();
        }
    }
}
