package dev.quiver.benchmarks;

import dev.quiver.Device;
import dev.quiver.DeviceBuffer;
import dev.quiver.Devices;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Fresh host memory, allocated, filled once and freed per operation, as a received Flight batch's body or a
 * host copy of a device array is when the pool has no block of its size (here the CPU pool caches nothing, so
 * every allocation is fresh): Quiver's CPU device with large allocations on transparent huge pages (the
 * default on Linux), the same with {@code -Dquiver.cpu.hugePages=false} (4 KiB pages, a fault each), and the C
 * library doing the same work ({@code posix_memalign}, {@code memset}, {@code free}) as the floor.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
public class FreshHostMemory {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle POSIX_MEMALIGN = LINKER.downcallHandle(LINKER.defaultLookup().find("posix_memalign").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle MEMSET = LINKER.downcallHandle(LINKER.defaultLookup().find("memset").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_INT, JAVA_LONG));
    private static final MethodHandle FREE = LINKER.downcallHandle(LINKER.defaultLookup().find("free").orElseThrow(),
            FunctionDescriptor.ofVoid(ADDRESS));

    /** Bytes per allocation. */
    @Param({"16777216", "268435456"})
    public long size;

    private Device cpu;
    private MemorySegment pointer;

    /** Turns the CPU pool's cache off, so that every allocation is fresh. */
    @Setup
    public void setUp() {
        cpu = Devices.system().cpu();
        cpu.memoryPool().setCacheLimit(0);
        pointer = Arena.global().allocate(ADDRESS);
    }

    /** Quiver's CPU device, large allocations on transparent huge pages (the default). */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
    public long quiverHugePages() {
        return fillOnce();
    }

    /** Quiver's CPU device on 4 KiB pages. */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "-Dquiver.cpu.hugePages=false"})
    public long quiverSmallPages() {
        return fillOnce();
    }

    /** The C library: posix_memalign, memset, free. */
    @Benchmark
    @Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
    public long cLibrary() throws Throwable {
        int rc = (int) POSIX_MEMALIGN.invokeExact(pointer, 64L, size);
        if (rc != 0) {
            throw new OutOfMemoryError("posix_memalign failed: " + rc);
        }
        MemorySegment memory = pointer.get(ADDRESS, 0);
        MemorySegment filled = (MemorySegment) MEMSET.invokeExact(memory, 1, size);
        FREE.invokeExact(memory);
        return filled.address();
    }

    private long fillOnce() {
        try (DeviceBuffer buffer = cpu.allocate(size)) {
            buffer.asSegment().fill((byte) 1);
            return buffer.asSegment().address();
        }
    }
}
