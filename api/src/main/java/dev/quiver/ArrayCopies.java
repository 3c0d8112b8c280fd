package dev.quiver;

import dev.quiver.internal.backend.Capabilities;
import dev.quiver.spi.EventWaits;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.internal.copy.ArrayCopier;
import dev.quiver.internal.events.ArrayCopyEvent;
import dev.quiver.internal.events.Recorder;
import dev.quiver.internal.validate.Faults;
import dev.quiver.internal.validate.HostBufferRanges;
import dev.quiver.spi.BackendDevice;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

/**
 * How an array's structs are copied (see {@link DeviceArray#copyTo(Device, DeviceStream)} for when the host
 * blocks): waits on or enqueues after the source's event, keeps the source alive while work that reads it is in
 * flight, and writes the copy's structs into a new block (they come from validated parts: no second validation,
 * no import), which {@code DeviceArray} wraps. Works on the source's borrowed structs and what it is given, never
 * on the source array itself. Stateless; runs on the caller's thread.
 */
final class ArrayCopies {
    private static final long DEVICE_ARRAY_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();

    private ArrayCopies() {}

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
    record Source(MemorySegment struct, Field field, DeviceType deviceType, String label, SyncEvent syncEvent,
                  boolean contentsVerified, Supplier<Runnable> retain) {}

    /**
     * @param source              the array to copy
     * @param from                the backend of the source's memory
     * @param target              the backend to copy to
     * @param stream              a stream of {@code target}, or NULL for its default behaviour
     * @param uploadInStreamOrder whether an upload from host memory may return before its copies complete
     * @return a new block holding the copy's live ArrowDeviceArray, owned by the caller
     */
    static long copy(Source source, BackendDevice from, BackendDevice target, MemorySegment stream, boolean uploadInStreamOrder) {
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
