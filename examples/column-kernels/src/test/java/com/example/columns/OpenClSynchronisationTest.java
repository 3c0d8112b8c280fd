package com.example.columns;

import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.SyncEvent;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * The events around the OpenCL kernels: a consumer on a queue of its own waits for a filtered column's
 * {@code sync_event} on the device, and the kernels wait, on the device, for their input's.
 */
class OpenClSynchronisationTest {
    @Test
    void aConsumerOnASecondAdoptedQueueWaitsForTheFilteredColumnOnTheDevice() {
        Device device = TestDevices.openCl();
        Long[] values = Int64Oracle.randomColumn(21, 200_000, 6);
        long[] expected = Int64Oracle.greaterThan(values, 7, 199_990, 250_000);
        MemorySegment queue = OpenClCalls.of(device).createCommandQueue(device.nativeHandle("cl_context"),
                device.nativeHandle("cl_device_id"));
        try (DeviceStream consumer = device.adoptStream(queue, true);
             ColumnKernels kernels = new ColumnKernels();
             DeviceArray column = ColumnKernelsTest.column(device, values);
             DeviceArray part = column.slice(7, 199_990);
             DeviceArray kept = kernels.filterGreaterThan(part, 250_000);
             Arena arena = Arena.ofConfined()) {
            SyncEvent written = kept.syncEvent().orElseThrow();
            consumer.waitFor(written);
            MemorySegment host = arena.allocate(JAVA_LONG, kept.length());
            kept.buffer(1).copyToHost(0, host, consumer);
            consumer.synchronize();
            assertArrayEquals(expected, host.toArray(JAVA_LONG));
        }
    }

    /**
     * The input's buffers are written on a queue held back by a user event, and its {@code sync_event}
     * completes only after those writes: a kernel that did not wait for it would read zeros.
     */
    @Test
    void theKernelsWaitForTheInputsSyncEventOnTheDevice() throws Throwable {
        Device device = TestDevices.openCl();
        Long[] values = Int64Oracle.randomColumn(22, 100_000, 3);
        long expectedSum = Int64Oracle.sum(values, 0, values.length);
        long[] expectedKept = Int64Oracle.greaterThan(values, 0, values.length, -500_000);
        MemorySegment gate = UserEvent.create(device.nativeHandle("cl_context"));
        AtomicBoolean gateOpen = new AtomicBoolean();
        try (ColumnKernels kernels = new ColumnKernels();
             DeviceArray staged = ColumnKernelsTest.column(device, values);
             DeviceStream writer = device.createStream();
             SyncEvent opened = device.adoptEvent(gate, true)) {
            try {
                staged.syncEvent().ifPresent(SyncEvent::waitOnHost);
                writer.waitFor(opened);
                try (DeviceArray input = heldBackCopy(device, staged, writer)) {
                    assertFalse(input.syncEvent().orElseThrow().isComplete(), "the gate holds the input back");
                    CompletableFuture<Void> opener = CompletableFuture.runAsync(() -> {
                        try {
                            TimeUnit.MILLISECONDS.sleep(300);
                            open(gate, gateOpen);
                        } catch (Throwable t) {
                            throw new IllegalStateException(t);
                        }
                    });
                    assertEquals(expectedSum, kernels.sum(input));
                    opener.join();
                    try (DeviceArray kept = kernels.filterGreaterThan(input, -500_000)) {
                        assertArrayEquals(expectedKept, ColumnKernelsTest.valuesOf(kept));
                    }
                }
            } finally {
                open(gate, gateOpen);
            }
        }
    }

    /** Completes the gate unless it already was, so that nothing queued behind it waits forever. */
    private static void open(MemorySegment gate, AtomicBoolean gateOpen) throws Throwable {
        if (gateOpen.compareAndSet(false, true)) {
            UserEvent.complete(gate);
        }
    }

    /** @return a copy of {@code staged} written on {@code writer}, whose sync event completes after the writes */
    private static DeviceArray heldBackCopy(Device device, DeviceArray staged, DeviceStream writer) {
        long validityBytes = staged.buffer(0).byteSize();
        long valueBytes = staged.buffer(1).byteSize();
        DeviceBuffer validity = device.allocate(validityBytes);
        DeviceBuffer values = device.allocate(valueBytes);
        staged.buffer(0).copyTo(0, validity, 0, validityBytes, writer);
        staged.buffer(1).copyTo(0, values, 0, valueBytes, writer);
        return ArrayBuilder.of(staged.field(), device)
                .length(staged.length()).nullCount(staged.nullCount()).offset(staged.offset())
                .buffer(validity).buffer(values)
                .syncEvent(writer.recordEvent())
                .build();
    }
}
