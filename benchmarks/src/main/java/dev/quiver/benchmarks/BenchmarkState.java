package dev.quiver.benchmarks;

import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.TimeUnit;

/**
 * The JMH state and settings this module's benchmarks share, as their superclass: state per benchmark thread,
 * average time in microseconds, 3 × 1 s of warm-up and 5 × 1 s of measurement in one fork with native access
 * (a benchmark annotates only what it does differently: JMH's annotations are inherited, the nearest wins),
 * and a trial's setup in one order: {@link #setUp()}, the trial's work, {@link #tearDown()}, then the trial's
 * native memory ({@link #arena()}) closed.
 *
 * <p>State is per benchmark thread: JMH makes one instance per thread and sets it up and tears it down on
 * that thread, so nothing here is shared between threads.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public abstract class BenchmarkState {
    private Arena arena;

    /** For subclasses, which JMH makes with their public no-argument constructor. */
    protected BenchmarkState() {
    }

    /**
     * Runs {@link #setUp()} before the trial's first iteration.
     *
     * @throws Exception whatever {@link #setUp()} throws
     */
    @Setup(Level.Trial)
    public final void setUpTrial() throws Exception {
        setUp();
    }

    /**
     * Runs {@link #tearDown()} after the trial's last iteration, then closes the trial's arena if it was opened.
     *
     * @throws Exception whatever {@link #tearDown()} throws
     */
    @TearDown(Level.Trial)
    public final void tearDownTrial() throws Exception {
        try {
            tearDown();
        } finally {
            if (arena != null) {
                arena.close();
                arena = null;
            }
        }
    }

    /**
     * Prepares the trial: what a benchmark makes once and measures many times.
     *
     * @throws Exception if the trial cannot run
     */
    protected void setUp() throws Exception {
    }

    /**
     * Frees what {@link #setUp()} made, before the trial's arena closes.
     *
     * @throws Exception if freeing fails
     */
    protected void tearDown() throws Exception {
    }

    /** {@return the trial's native memory: opened on first use with {@link #openArena()}, closed after {@link #tearDown()}} */
    protected final Arena arena() {
        if (arena == null) {
            arena = openArena();
        }
        return arena;
    }

    /** {@return a new arena for the trial: a shared one, unless a benchmark says otherwise} */
    protected Arena openArena() {
        return Arena.ofShared();
    }

    /**
     * @param size  bytes
     * @param value what every byte holds
     * @return {@code size} bytes of the trial's memory, aligned to 64 bytes
     */
    protected final MemorySegment filled(long size, int value) {
        return arena().allocate(size, 64).fill((byte) value);
    }

    /**
     * @param backend a device type's name, as a benchmark's {@code backend} parameter gives it ({@code cpu},
     *                {@code opencl}, {@code vulkan})
     * @return the host device for {@code cpu}, else the first device of that type
     */
    protected static Device device(String backend) {
        DeviceType type = DeviceType.byName(backend).orElseThrow();
        return Devices.system().get(type, type.equals(DeviceType.CPU) ? -1 : 0);
    }
}
