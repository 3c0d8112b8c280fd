package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.backend.Capabilities;
import dev.quiver.internal.backend.CheckedBackendDevice;
import dev.quiver.internal.backend.HostMemory;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.internal.copy.ArrayCopier;
import dev.quiver.internal.events.ArrayCopyEvent;
import dev.quiver.internal.events.Recorder;
import dev.quiver.internal.validate.Faults;
import dev.quiver.internal.validate.HostBufferRanges;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.EventWaits;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

/**
 * Copies of device arrays: to a device, on its default stream or on a stream of the caller's, and to host
 * memory from any device. A copy is a new {@link DeviceArray} that owns its memory (from the target's
 * {@linkplain Device#memoryPool() pool}) and is writable, whatever the source was; it carries its own sync event
 * where the target has events, which completes with the copy. The source stays the caller's: it may be closed as
 * soon as the call returns, since a copy still in flight keeps what it reads alive.
 *
 * <p><b>When the host blocks.</b> A copy within one device of an array whose sizes do not depend on its data
 * (fixed-width values, bitmaps, structs, fixed-size lists of those) does not block: the stream waits on the
 * source's sync event on the device and the copies are enqueued after it. An upload from host memory (a CPU
 * array, or pinned or managed memory) on a stream of a device with events does not wait for the copies either
 * (the source's memory is then let go of in stream order, so its release callbacks may run on Quiver's
 * stream-order thread of the target device). The host waits for the copy when the target is another device than
 * the source's and neither is the host (memory moves through the host), when the target memory is
 * host-accessible, and when the target has no events. It waits for the source's sync event first unless the copy
 * stays on one device, and reads sizes from the data (string and list offsets, view buffers) only after that
 * event.
 *
 * <p><b>Threading.</b> Stateless; each copy runs on the caller's thread, under {@link DeviceArray}'s rules for
 * using the source. Works on the source's borrowed structs; {@code DeviceArray} does not call back into it.
 */
public final class Copies {
    private static final long DEVICE_ARRAY_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();

    private Copies() {}

    /**
     * Copies {@code array}, its buffers and children, to a device (or the same one) on the target's default
     * stream. An upload from host memory completes before this returns (a caller that never names a stream
     * never sees work in flight); otherwise as the class says.
     *
     * @param array  the array to copy, open
     * @param target the device to copy to
     * @return the copy, owned by the caller
     * @throws IllegalStateException if {@code array} is closed or exported
     */
    public static DeviceArray toDevice(DeviceArray array, Device target) {
        return copy(array, target.backend(), target.defaultStream().handle(), false);
    }

    /**
     * Copies {@code array} to {@code target}, enqueuing the work on {@code stream}; when the host blocks is
     * the class's rule.
     *
     * @param array  the array to copy, open
     * @param target the device to copy to
     * @param stream a stream of {@code target}
     * @return the copy, owned by the caller
     * @throws IllegalArgumentException if {@code stream} belongs to another device than {@code target}
     * @throws IllegalStateException    if {@code array} is closed or exported
     */
    public static DeviceArray toDevice(DeviceArray array, Device target, DeviceStream stream) {
        if (!stream.device().equals(target)) {
            throw new IllegalArgumentException("stream of " + stream.device() + " given for a copy to " + target);
        }
        return copy(array, target.backend(), stream.handle(), true);
    }

    /**
     * Copies {@code array} into host memory that Quiver allocates, whatever backends are installed: the way to
     * read data from any device. Waits on the host for the array's sync event first. The memory comes from the
     * host's pool, or from the pool of host memory pinned for the array's device where the
     * {@link dev.quiver.memory.PinnedHostPolicy} in force says so (a later copy back to that device then runs at
     * the device's full rate); either way the copy is a CPU array.
     *
     * @param array the array to copy, open
     * @return a CPU copy, owned by the caller
     * @throws InvalidArrowException if the array is in host memory and a range its structs imply is not
     *                               readable (checked against the process's mappings before the copy reads it)
     * @throws IllegalStateException if {@code array} is closed or exported
     */
    public static DeviceArray toHost(DeviceArray array) {
        CheckedBackendDevice pinned = array.deviceType.equals(DeviceType.CPU) ? null : CheckedBackendDevice.of(array.device().backend()).pinnedHost();
        return copy(array, pinned == null ? HostMemory.device() : pinned, MemorySegment.NULL, false);
    }

    private static DeviceArray copy(DeviceArray array, BackendDevice target, MemorySegment stream, boolean uploadInStreamOrder) {
        Source source = new Source(array.arrowArray(), array.field, array.deviceType, array.deviceLabel(), array.syncEvent,
                array.contentsVerified, () -> array.retain()::close);
        return array.adopt(copy(source, array.memoryBackend(), target, stream, uploadInStreamOrder), array.field, false);
    }

    /**
     * The source of a copy: its borrowed {@code struct ArrowArray} (open for the whole call) and what is known
     * about it.
     *
     * @param struct           the source's {@code struct ArrowArray}
     * @param field            its field
     * @param deviceType       the device type of its memory
     * @param label            its device, as events name it ({@code CUDA:0})
     * @param syncEvent        its sync event, or null
     * @param contentsVerified whether its contents are known valid (no range check needed before reading)
     * @param retain           takes a reference that keeps the source's memory alive, returning its release
     */
    private record Source(MemorySegment struct, Field field, DeviceType deviceType, String label, SyncEvent syncEvent,
                  boolean contentsVerified, Supplier<Runnable> retain) {}

    /**
     * @param source              the array to copy
     * @param from                the backend of the source's memory
     * @param target              the backend to copy to
     * @param stream              a stream of {@code target}, or NULL for its default behaviour
     * @param uploadInStreamOrder whether an upload from host memory may return before its copies complete
     * @return a new block holding the copy's live ArrowDeviceArray, owned by the caller
     */
    private static long copy(Source source, BackendDevice from, BackendDevice target, MemorySegment stream, boolean uploadInStreamOrder) {
        ArrayCopyEvent event = Recorder.arrayCopy();
        SyncEvent syncEvent = source.syncEvent();
        Field field = source.field();
        boolean onDevice = from == target && !target.hostAccessible() && ArrayCopier.sizesKnownWithoutData(field);
        Runnable keepAlive = () -> { };
        if (syncEvent != null && onDevice) {
            EventWaits waits = Capabilities.waits(target);
            waits.streamWaitEvent(stream, waits.eventFromSyncEvent(syncEvent.pointer()));
        } else if (syncEvent != null) {
            syncEvent.waitOnHost();
        }
        if (source.deviceType().isHostAccessible() && !source.contentsVerified()) {
            // the copier reads host memory up to the sizes the structs imply: check those ranges are mapped
            HostBufferRanges.check(source.struct().address(), field, Faults.checking(InvalidArrowException::new));
        }
        if (onDevice) {
            keepAlive = source.retain().get();
        }
        Runnable afterReads = null;
        if (uploadInStreamOrder && from.hostAccessible() && !target.hostAccessible() && Capabilities.hasEvents(target)) {
            // an upload that does not block: the source stays alive until the copy's work completes
            afterReads = source.retain().get();
        }
        MemorySegment out = NativeHeap.calloc(DEVICE_ARRAY_SIZE);
        long bytes;
        try {
            bytes = ArrayCopier.copy(source.struct(), field, from, target, stream, out, keepAlive, afterReads);
        } catch (RuntimeException | Error e) {
            NativeHeap.free(out.address());
            keepAlive.run();
            if (afterReads != null) {
                afterReads.run();
            }
            if (e instanceof ArrayCopier.UncheckedContents unchecked) {
                throw new InvalidArrowException(unchecked.path(), unchecked.rule());
            }
            throw e;
        }
        long block = out.address();
        if (event != null) {
            DeviceType type = DeviceType.of(RawMemory.getInt(block + ArrowDeviceArrayLayout.DEVICE_TYPE));
            long id = RawMemory.getLong(block + ArrowDeviceArrayLayout.DEVICE_ID);
            long length = RawMemory.getLong(block + ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.LENGTH);
            event.finish(source.label(), type + ":" + id, field.name(), length, bytes);
        }
        return block;
    }
}
