package com.example.columns;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Int64 column kernels that run where the column lives.
 *
 * <ul>
 *   <li><b>CPU</b>: on the calling thread, reading the validity bitmap and the values in place.</li>
 *   <li><b>OpenCL</b>: kernels of this library's own, compiled at run time for the column's device on the
 *       device's {@code cl_context}, run on a command queue of this library's own that first waits, on the
 *       device, for the column's {@code sync_event}.</li>
 *   <li><b>Any other device</b>: the column is copied to host memory ({@link Copies#toHost},
 *       which waits on the host for its {@code sync_event}), computed there, and a filtered column is
 *       copied back to the column's device.</li>
 * </ul>
 *
 * <p>Columns are signed 64-bit integers ({@code "l"}), nullable or not, sliced or not; null rows are
 * skipped. The column stays the caller's: nothing here closes or moves it.
 *
 * <p>Owned by whoever made it, who closes it once to release the OpenCL programs and queues it made
 * (waiting for their work first); the results it returned stay valid and stay their callers'. Thread-safe:
 * any thread may call any method, and calls on one OpenCL device are serialised.
 *
 * {@snippet :
 * try (ColumnKernels kernels = new ColumnKernels()) {
 *     long total = kernels.sum(column);
 *     try (DeviceArray big = kernels.filterGreaterThan(column, 1_000)) {
 *         // big lives on column's device; its sync_event completes when its values are written
 *     }
 * }
 * }
 */
public final class ColumnKernels implements AutoCloseable {
    private final Map<List<Long>, OpenClColumns> openCl = new HashMap<>();
    private boolean closed;

    /** Makes an empty set of kernels; OpenCL programs are built on first use per device. */
    public ColumnKernels() {
    }

    /**
     * Adds up the non-null values of an int64 column, wrapping on overflow like Java's {@code long}.
     * Blocks the calling thread until the sum is known.
     *
     * @param int64Column an open int64 column on any device, borrowed
     * @return the sum (0 for a column of nulls or of no rows)
     * @throws NullPointerException     if {@code int64Column} is null
     * @throws IllegalArgumentException if it is not an int64 column
     * @throws IllegalStateException    if it or these kernels are closed
     * @throws ColumnKernelsException   if an OpenCL call fails
     */
    public long sum(DeviceArray int64Column) {
        checkOpen();
        Int64Column column = Int64Column.of(int64Column);
        DeviceType type = int64Column.deviceType();
        if (type.equals(DeviceType.CPU)) {
            return HostColumns.sum(column);
        }
        if (type.equals(DeviceType.OPENCL)) {
            return kernelsFor(int64Column.device()).sum(column);
        }
        try (DeviceArray host = Copies.toHost(int64Column)) {
            return HostColumns.sum(Int64Column.of(host));
        }
    }

    /**
     * Keeps the non-null values of an int64 column that are greater than {@code threshold}, in row order, in
     * a new column on the same device. On OpenCL the calling thread blocks only until the number of kept
     * rows is known; the result's {@code sync_event} completes when its values are written.
     *
     * @param int64Column an open int64 column on any device, borrowed
     * @param threshold   the value kept rows exceed
     * @return a new int64 column without nulls (no validity bitmap, offset 0) on the column's device, owned
     *         by the caller, who closes it
     * @throws NullPointerException     if {@code int64Column} is null
     * @throws IllegalArgumentException if it is not an int64 column
     * @throws IllegalStateException    if it or these kernels are closed
     * @throws ColumnKernelsException   if an OpenCL call fails
     */
    public DeviceArray filterGreaterThan(DeviceArray int64Column, long threshold) {
        checkOpen();
        Int64Column column = Int64Column.of(int64Column);
        DeviceType type = int64Column.deviceType();
        if (type.equals(DeviceType.CPU)) {
            return HostColumns.filterGreaterThan(column, threshold, int64Column.device());
        }
        if (type.equals(DeviceType.OPENCL)) {
            return kernelsFor(int64Column.device()).filterGreaterThan(column, threshold);
        }
        Device device = int64Column.device();
        try (DeviceArray host = Copies.toHost(int64Column);
             DeviceArray kept = HostColumns.filterGreaterThan(Int64Column.of(host), threshold, host.device())) {
            return Copies.toDevice(kept, device);
        }
    }

    private synchronized OpenClColumns kernelsFor(Device device) {
        checkOpen();
        List<Long> key = List.of(device.nativeHandle("cl_context").address(), device.nativeHandle("cl_device_id").address());
        OpenClColumns kernels = openCl.get(key);
        if (kernels == null) {
            kernels = OpenClColumns.build(device);
            openCl.put(key, kernels);
        }
        return kernels;
    }

    private synchronized void checkOpen() {
        if (closed) {
            throw new IllegalStateException("these column kernels are closed");
        }
    }

    /**
     * Waits for the work of the OpenCL queues made here, then releases them with their programs; idempotent.
     * Calls made after this throw {@link IllegalStateException}.
     */
    @Override
    public void close() {
        List<OpenClColumns> toClose;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            toClose = new ArrayList<>(openCl.values());
            openCl.clear();
        }
        RuntimeException failure = null;
        for (OpenClColumns kernels : toClose) {
            try {
                kernels.close();
            } catch (RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
