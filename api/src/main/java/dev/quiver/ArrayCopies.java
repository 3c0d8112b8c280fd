package dev.quiver;

import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.internal.copy.ArrayCopier;
import dev.quiver.internal.backend.HostMemory;
import dev.quiver.internal.events.ArrayCopyEvent;
import dev.quiver.internal.events.Recorder;
import dev.quiver.internal.validate.Faults;
import dev.quiver.internal.validate.HostBufferRanges;
import dev.quiver.spi.BackendDevice;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * How a {@link DeviceArray} is copied (see {@link DeviceArray#copyTo(Device, DeviceStream)} for when the host
 * blocks): waits on or enqueues after the source's event, keeps the source alive while work that reads it is in
 * flight, and adopts the structs the copier wrote (they come from validated parts: no second validation, no
 * import). Stateless; runs on the caller's thread.
 */
final class ArrayCopies {
    private ArrayCopies() {}

    /**
     * @param source              the array to copy, open
     * @param target              the backend to copy to
     * @param stream              a stream of {@code target}, or NULL for its default behaviour
     * @param uploadInStreamOrder whether an upload from host memory may return before its copies complete
     * @return the copy, owned by the caller
     */
    static DeviceArray copy(DeviceArray source, BackendDevice target, MemorySegment stream, boolean uploadInStreamOrder) {
        source.checkOpen();
        ArrayCopyEvent event = Recorder.arrayCopy();
        SyncEvent syncEvent = source.syncEvent;
        BackendDevice from = source.deviceType.equals(DeviceType.CPU) ? HostMemory.device() : source.backend();
        boolean onDevice = from == target && !target.hostAccessible() && ArrayCopier.sizesKnownWithoutData(source.field);
        Runnable keepAlive = () -> { };
        if (syncEvent != null && onDevice) {
            target.streamWaitEvent(stream, target.eventFromSyncEvent(syncEvent.pointer()));
        } else if (syncEvent != null) {
            syncEvent.waitOnHost();
        }
        if (source.deviceType.isHostAccessible() && !source.contentsVerified) {
            // the copier reads host memory up to the sizes the structs imply: check those ranges are mapped
            HostBufferRanges.check(source.arrowArray().address(), source.field, Faults.checking(InvalidArrowException::new));
        }
        if (onDevice) {
            keepAlive = source.retain()::close;
        }
        Runnable afterReads = null;
        if (uploadInStreamOrder && from.hostAccessible() && !target.hostAccessible() && target.supportsEvents()) {
            // an upload that does not block: the source stays alive until the copy's work completes
            afterReads = source.retain()::close;
        }
        try (Arena scratch = Arena.ofConfined()) {
            MemorySegment out = scratch.allocate(ArrowDeviceArrayLayout.LAYOUT);
            long bytes;
            try {
                bytes = ArrayCopier.copy(source.arrowArray(), source.field, from, target, stream, out, keepAlive, afterReads);
            } catch (RuntimeException | Error e) {
                keepAlive.run();
                if (afterReads != null) {
                    afterReads.run();
                }
                if (e instanceof ArrayCopier.UncheckedContents unchecked) {
                    throw new InvalidArrowException(unchecked.path(), unchecked.rule());
                }
                throw e;
            }
            DeviceArray copy = ArrayImports.adoptWritten(out, source.field, source.devices, false);
            copy.contentsVerified = source.contentsVerified;
            copy.decimalPrecisionChecked = source.decimalPrecisionChecked;
            if (event != null) {
                event.finish(source.deviceLabel(), copy.deviceLabel(), source.field.name(), copy.length(), bytes);
            }
            return copy;
        }
    }
}
