package dev.quiver.benchmarks;

import dev.quiver.ArrayBuilder;
import dev.quiver.Interchange;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import org.openjdk.jmh.annotations.Benchmark;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * What a computing library does per result column: wrap two buffers it computed into (validity and int64
 * values, 1,000 rows, memory it keeps), build a {@link DeviceArray} from them with
 * {@link ArrayBuilder#of(Field, Device)}, export it into an ArrowDeviceArray + ArrowSchema ({@link Interchange#exportDevice})
 * and release both through their C release callbacks, as a consumer would. Times are per column; compare
 * with {@code ExportImportRelease.quiver} (1 x int32), which imports instead of building.
 */
public class BuildExportRelease extends BenchmarkState {
    private static final int ROWS = 1_000;
    private static final Field INT64 = Field.of("x", new ArrowType.Int(64, true), true);

    private Device cpu;
    private MemorySegment validity;
    private MemorySegment values;
    private MemorySegment deviceArray;
    private MemorySegment schema;
    private MethodHandle release;

    /** Allocates the buffers and the structs once. */
    @Override
    protected void setUp() {
        cpu = Devices.system().cpu();
        Arena arena = arena();
        validity = arena.allocate(ROWS / 8, 64);
        validity.fill((byte) 0xff);
        values = arena.allocate(ROWS * 8L, 64);
        deviceArray = ArrowDeviceArrayLayout.allocate(arena);
        schema = ArrowSchemaLayout.allocate(arena);
        release = Linker.nativeLinker().downcallHandle(FunctionDescriptor.ofVoid(ADDRESS));
    }

    /**
     * @return the length of the released array, so the work is not eliminated
     * @throws Throwable if a release downcall fails
     */
    @Benchmark
    public long buildExportRelease() throws Throwable {
        DeviceArray column = ArrayBuilder.of(INT64, cpu).length(ROWS).nullCount(0)
                .buffer(cpu.wrap(validity, validity.byteSize(), BuildExportRelease::keep))
                .buffer(cpu.wrap(values, values.byteSize(), BuildExportRelease::keep))
                .build();
        Interchange.exportDevice(column, deviceArray, schema);
        long length = deviceArray.get(java.lang.foreign.ValueLayout.JAVA_LONG, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.LENGTH);
        release.invokeExact(deviceArray.get(ADDRESS, ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.RELEASE), deviceArray);
        release.invokeExact(schema.get(ADDRESS, ArrowSchemaLayout.RELEASE), schema);
        return length;
    }

    /** The buffers stay the benchmark's: their release action keeps them. */
    private static void keep() {
    }
}
