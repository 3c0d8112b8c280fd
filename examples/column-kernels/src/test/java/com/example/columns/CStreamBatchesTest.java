package com.example.columns;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.testkit.CLibrary;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.stream.LongStream;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * 100 batches of a million rows from a C {@code ArrowDeviceArrayStream} (int64_batches.c, compiled with gcc
 * and loaded with FFM), summed and filtered on the CPU where they arrive and on OpenCL after a copy, against
 * plain Java computing the producer's formula on its own.
 */
class CStreamBatchesTest {
    private static final int BATCHES = 100;
    private static final int ROWS = 1_000_000;
    private static final long THRESHOLD = 400_000;
    /** The size of struct ArrowDeviceArrayStream. */
    private static final long STREAM_BYTES = 48;

    private static final CLibrary PRODUCER = CLibrary.fromResources(CStreamBatchesTest.class, "int64_batches.c");
    private static final MethodHandle OPEN = PRODUCER.function("int64_batches_stream",
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_LONG));
    private static final MethodHandle RELEASED = PRODUCER.function("int64_batches_released", FunctionDescriptor.of(JAVA_LONG));
    private static final MethodHandle SLOT_MIX = PRODUCER.function("slot_mix",
            FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_LONG));

    /** The producer's formula, in Java: see int64_batches.c. */
    static long slotMix(long batch, long slot) {
        long z = (batch << 32) + slot + 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }

    /**
     * What plain Java computes from the producer's formula for one batch.
     *
     * @param sum  the sum of its non-null rows
     * @param kept its non-null rows greater than {@link #THRESHOLD}, in order
     */
    record Expected(long sum, long[] kept) {
        static Expected of(int batch) {
            long offset = batch % 7;
            long sum = 0;
            LongStream.Builder kept = LongStream.builder();
            for (int i = 0; i < ROWS; i++) {
                long z = slotMix(batch, offset + i);
                if ((z >>> 40) % 10 != 0) {
                    long value = Long.remainderUnsigned(z, 2_000_001) - 1_000_000;
                    sum += value;
                    if (value > THRESHOLD) {
                        kept.add(value);
                    }
                }
            }
            return new Expected(sum, kept.build().toArray());
        }
    }

    @Test
    void theJavaFormulaIsTheProducers() throws Throwable {
        for (long batch : new long[] {0, 1, 99}) {
            for (long slot : new long[] {0, 6, 999_999, 1_000_005}) {
                assertEquals((long) SLOT_MIX.invokeExact(batch, slot), slotMix(batch, slot));
            }
        }
    }

    @Test
    void hundredBatchesOfAMillionRowsEqualPlainJavaOnTheCpuAndOnOpenCl() throws Throwable {
        Device openCl = TestDevices.openCl();
        long releasedBefore = (long) RELEASED.invokeExact();
        int batches = 0;
        try (Arena arena = Arena.ofConfined();
             ColumnKernels kernels = new ColumnKernels()) {
            MemorySegment struct = arena.allocate(STREAM_BYTES, 8);
            assertEquals(0, (int) OPEN.invokeExact(struct, BATCHES, (long) ROWS));
            try (DeviceArrayStream stream = DeviceArrayStream.importFrom(struct)) {
                while (stream.hasNext()) {
                    try (DeviceArray batch = stream.next();
                         DeviceArray onOpenCl = Copies.toDevice(batch, openCl)) {
                        Expected expected = Expected.of(batches);
                        assertEquals(batches % 7, batch.offset());
                        assertEquals(expected.sum(), kernels.sum(batch), "CPU sum of batch " + batches);
                        assertEquals(expected.sum(), kernels.sum(onOpenCl), "OpenCL sum of batch " + batches);
                        try (DeviceArray onHost = kernels.filterGreaterThan(batch, THRESHOLD);
                             DeviceArray onDevice = kernels.filterGreaterThan(onOpenCl, THRESHOLD)) {
                            assertArrayEquals(expected.kept(), ColumnKernelsTest.valuesOf(onHost), "CPU filter of batch " + batches);
                            assertArrayEquals(expected.kept(), ColumnKernelsTest.valuesOf(onDevice), "OpenCL filter of batch " + batches);
                        }
                    }
                    batches++;
                }
            }
        }
        assertEquals(BATCHES, batches);
        assertEquals(BATCHES, (long) RELEASED.invokeExact() - releasedBefore, "every batch released once");
    }
}
