package com.example.columns;

import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.DeviceStream;
import dev.quiver.SyncEvent;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;

import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The kernels of {@code column_kernels.cl}, built for one OpenCL device, with a command queue of this
 * library's own that Quiver adopted. Made from the device's public native handles ({@code cl_context},
 * {@code cl_device_id}); buffers are the arrays' {@code cl_mem} handles, and offsets travel as kernel
 * arguments.
 *
 * <p>Each call first makes the queue wait, on the device, for the column's {@code sync_event}. A sum blocks
 * the calling thread until its partial sums are read back; a filter blocks only to read the number of rows
 * it keeps (the result's length must be known on the host), and returns while the rows are still being
 * written: the result carries its own {@code sync_event} recorded after the last kernel. The temporary
 * buffers of a call are released when it returns; OpenCL keeps a released {@code cl_mem} alive until the
 * commands that use it complete, and likewise the input's buffers if the caller closes the input early.
 *
 * <p>Thread-safe: calls on one device are serialised (they share the kernels' arguments and the queue).
 * Owned by {@link ColumnKernels}, which closes it once.
 */
final class OpenClColumns implements AutoCloseable {
    /** Work items of a sum; each adds every {@code SUM_ITEMS}-th row. */
    private static final long SUM_ITEMS = 1024;
    /** A filter's work item keeps the rows of one chunk of at least this many rows, in order. */
    private static final long MIN_CHUNK = 1024;
    /** At most this many filter chunks, so that the serial scan of their counts stays short. */
    private static final long MAX_CHUNKS = 16384;

    private final Device device;
    private final OpenClCalls cl;
    private final MemorySegment program;
    private final MemorySegment sumKernel;
    private final MemorySegment countKernel;
    private final MemorySegment scanKernel;
    private final MemorySegment scatterKernel;
    private final DeviceStream queue;
    private boolean closed;

    private OpenClColumns(Device device, OpenClCalls cl, MemorySegment program, MemorySegment[] kernels,
                          DeviceStream queue) {
        this.device = device;
        this.cl = cl;
        this.program = program;
        this.sumKernel = kernels[0];
        this.countKernel = kernels[1];
        this.scanKernel = kernels[2];
        this.scatterKernel = kernels[3];
        this.queue = queue;
    }

    /**
     * Builds the kernels for {@code device} and adopts a new queue of its context.
     *
     * @param device an OPENCL device
     * @return the kernels, owned by the caller
     * @throws ColumnKernelsException if an OpenCL call fails; nothing is left allocated
     */
    static OpenClColumns build(Device device) {
        OpenClCalls cl = OpenClCalls.of(device);
        MemorySegment context = device.nativeHandle("cl_context");
        MemorySegment clDevice = device.nativeHandle("cl_device_id");
        MemorySegment program = cl.buildProgram(context, clDevice, kernelSource());
        String[] names = {"sum_strided", "count_greater", "exclusive_scan", "scatter_greater"};
        MemorySegment[] kernels = new MemorySegment[names.length];
        int made = 0;
        try {
            for (; made < names.length; made++) {
                kernels[made] = cl.createKernel(program, names[made]);
            }
            MemorySegment nativeQueue = cl.createCommandQueue(context, clDevice);
            DeviceStream queue;
            try {
                queue = device.adoptStream(nativeQueue, true);
            } catch (RuntimeException | Error e) {
                cl.releaseCommandQueue(nativeQueue);
                throw e;
            }
            return new OpenClColumns(device, cl, program, kernels, queue);
        } catch (RuntimeException | Error e) {
            for (int k = 0; k < made; k++) {
                cl.releaseKernel(kernels[k]);
            }
            cl.releaseProgram(program);
            throw e;
        }
    }

    private static String kernelSource() {
        try (InputStream in = OpenClColumns.class.getResourceAsStream("column_kernels.cl")) {
            if (in == null) {
                throw new IllegalStateException("column_kernels.cl is missing beside " + OpenClColumns.class.getName());
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return the wrapping sum of the column's non-null values */
    synchronized long sum(Int64Column column) {
        checkOpen();
        waitForInput(column);
        long items = Math.clamp(Math.ceilDiv(column.length(), MIN_CHUNK), 1, SUM_ITEMS);
        try (DeviceBuffer partial = device.allocate(items * Long.BYTES);
             Arena arena = Arena.ofConfined()) {
            int next = setColumnArgs(sumKernel, column);
            cl.setBufferArg(sumKernel, next, partial.pointer());
            cl.enqueue(queue.handle(), sumKernel, items);
            MemorySegment sums = arena.allocate(JAVA_LONG, items);
            partial.copyToHost(0, sums, queue);
            queue.synchronize();
            long total = 0;
            for (long g = 0; g < items; g++) {
                total += sums.getAtIndex(JAVA_LONG, g);
            }
            return total;
        }
    }

    /**
     * @return a new int64 column without nulls on this device, owned by the caller, with its own
     *         {@code sync_event}: the non-null values greater than {@code threshold}, in row order
     */
    synchronized DeviceArray filterGreaterThan(Int64Column column, long threshold) {
        checkOpen();
        waitForInput(column);
        long length = column.length();
        long chunk = Math.max(MIN_CHUNK, Math.ceilDiv(length, MAX_CHUNKS));
        long chunks = Math.ceilDiv(length, chunk);
        try (DeviceBuffer counts = device.allocate((chunks + 1) * Long.BYTES);
             Arena arena = Arena.ofConfined()) {
            int next = setColumnArgs(countKernel, column);
            cl.setLongArg(countKernel, next, chunk);
            cl.setLongArg(countKernel, next + 1, threshold);
            cl.setBufferArg(countKernel, next + 2, counts.pointer());
            if (chunks > 0) {
                cl.enqueue(queue.handle(), countKernel, chunks);
            }
            cl.setBufferArg(scanKernel, 0, counts.pointer());
            cl.setLongArg(scanKernel, 1, chunks);
            cl.enqueue(queue.handle(), scanKernel, 1);
            MemorySegment total = arena.allocate(JAVA_LONG);
            counts.copyToHost(chunks * Long.BYTES, total, queue);
            queue.synchronize();
            return scatter(column, threshold, chunk, chunks, counts, total.get(JAVA_LONG, 0));
        }
    }

    private DeviceArray scatter(Int64Column column, long threshold, long chunk, long chunks, DeviceBuffer starts,
                                long kept) {
        DeviceBuffer out = device.allocate(kept * Long.BYTES);
        SyncEvent written = null;
        try {
            if (kept > 0) {
                int next = setColumnArgs(scatterKernel, column);
                cl.setLongArg(scatterKernel, next, chunk);
                cl.setLongArg(scatterKernel, next + 1, threshold);
                cl.setBufferArg(scatterKernel, next + 2, starts.pointer());
                cl.setBufferArg(scatterKernel, next + 3, out.pointer());
                cl.enqueue(queue.handle(), scatterKernel, chunks);
            }
            written = queue.recordEvent();
            return ArrayBuilder.of(column.resultField(), device)
                    .length(kept).nullCount(0).offset(0)
                    .absentBuffer().buffer(out)
                    .syncEvent(written)
                    .build();
        } catch (RuntimeException | Error e) {
            if (written != null) {
                written.close();
            }
            out.close();
            throw e;
        }
    }

    /** Sets the arguments every kernel over a column starts with; returns the index of the next one. */
    private int setColumnArgs(MemorySegment kernel, Int64Column column) {
        MemorySegment values = column.values().pointer();
        cl.setBufferArg(kernel, 0, values);
        cl.setBufferArg(kernel, 1, column.validity() == null ? values : column.validity().pointer());
        cl.setIntArg(kernel, 2, column.validity() == null ? 0 : 1);
        cl.setLongArg(kernel, 3, column.offset());
        cl.setLongArg(kernel, 4, column.length());
        return 5;
    }

    private void waitForInput(Int64Column column) {
        column.array().syncEvent().ifPresent(queue::waitFor);
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the column kernels for " + device + " are closed");
        }
    }

    /** Waits for the queue's work, then releases the queue, the kernels and the program; idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        queue.synchronize();
        queue.close();
        cl.releaseKernel(sumKernel);
        cl.releaseKernel(countKernel);
        cl.releaseKernel(scanKernel);
        cl.releaseKernel(scatterKernel);
        cl.releaseProgram(program);
    }
}
