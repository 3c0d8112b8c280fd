package com.example.columns;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceStream;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

/**
 * Sums a sequence of host batches on a device, uploading batch n+1 while batch n is summed.
 *
 * <p>Each upload is {@link Copies#toDevice(DeviceArray, Device, DeviceStream)} on a stream of its own: it is enqueued
 * and returns at once, keeping the host batch's memory alive until the copy completes (so the batch is closed
 * right after it is handed over), and the copy's {@code sync_event} completes with it. The sum of batch n
 * waits, on the device, for batch n's event only, so the device copies batch n+1 while it runs batch n's
 * kernel: end to end, a batch costs about the larger of its upload and its sum, not both. On devices without
 * kernels of this library (anything but the CPU and OpenCL) the sum copies to the host and the overlap is lost.
 *
 * {@snippet :
 * try (ColumnKernels kernels = new ColumnKernels()) {
 *     List<Long> sums = UploadPipeline.sums(kernels, hostBatches, device);
 * }
 * }
 *
 * <p>Stateless; the calling thread does the work. Host batches are taken over (closed once uploaded); the
 * uploaded copies are closed once summed, also when a sum fails.
 */
public final class UploadPipeline {
    private UploadPipeline() {}

    /**
     * @param kernels     the kernels to sum with, borrowed
     * @param hostBatches int64 columns in host memory (CPU arrays), each taken over
     * @param device      where to sum them
     * @return the sum of each batch, in order
     * @throws IllegalArgumentException if a batch is not an int64 column
     * @throws ColumnKernelsException   if an OpenCL call fails
     */
    public static List<Long> sums(ColumnKernels kernels, Iterator<DeviceArray> hostBatches, Device device) {
        Objects.requireNonNull(kernels, "kernels");
        Objects.requireNonNull(device, "device");
        List<Long> sums = new ArrayList<>();
        try (DeviceStream uploads = device.createStream()) {
            DeviceArray next = hostBatches.hasNext() ? upload(hostBatches.next(), device, uploads) : null;
            while (next != null) {
                try (DeviceArray current = next) {
                    next = null;
                    if (hostBatches.hasNext()) {
                        next = upload(hostBatches.next(), device, uploads);   // enqueued; returns at once
                    }
                    sums.add(kernels.sum(current));                          // overlaps the upload above
                } catch (RuntimeException | Error e) {
                    if (next != null) {
                        next.close();
                    }
                    while (hostBatches.hasNext()) {
                        hostBatches.next().close();
                    }
                    throw e;
                }
            }
        }
        return sums;
    }

    private static DeviceArray upload(DeviceArray hostBatch, Device device, DeviceStream uploads) {
        try (hostBatch) {
            return Copies.toDevice(hostBatch, device, uploads);
        }
    }
}
