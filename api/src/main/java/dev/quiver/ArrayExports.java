package dev.quiver;

import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.abi.PlainExport;
import dev.quiver.internal.abi.NativeHeap;
import dev.quiver.internal.abi.Pointers;
import dev.quiver.internal.abi.RawMemory;
import dev.quiver.internal.abi.ReleaseCallbacks;
import dev.quiver.internal.abi.StructWriter;
import dev.quiver.internal.events.ArrayExportEvent;
import dev.quiver.internal.events.Recorder;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.util.Objects;

/**
 * How a {@link DeviceArray} goes out to a C consumer: moved out ({@link Interchange#exportDevice}), shared as a view
 * that holds a reference ({@link Interchange#exportShared}), or through the plain C Data interface
 * ({@link Interchange#exportPlain}). Stateless; each method runs on the caller's thread, under the contracts of
 * the public method it serves.
 */
final class ArrayExports {
    private static final long DEVICE_ARRAY_SIZE = ArrowDeviceArrayLayout.LAYOUT.byteSize();
    private static final long SCHEMA_SIZE = ArrowSchemaLayout.LAYOUT.byteSize();

    private ArrayExports() {}

    /** See {@link Interchange#exportDevice}: the targets are checked before the array's state changes. */
    static void moveOut(DeviceArray array, MemorySegment deviceArray, MemorySegment schema) {
        long arrayTarget = Pointers.writableStructAddress(deviceArray, ArrowDeviceArrayLayout.LAYOUT, "deviceArray");
        long schemaTarget = schemaTarget(schema);
        ArrayState state = array.state;
        ArrayExportEvent event = Recorder.arrayExport();
        int found = state.move();
        if (found == -1) {
            throw new IllegalStateException(state.description() + " has " + (state.references() - 1)
                    + " shared view(s) not yet released; it cannot be moved out");
        }
        if (found != ArrayState.OPEN) {
            throw new IllegalStateException(state.description() + " is " + state.endedAs());
        }
        Reference.reachabilityFence(array);
        long block = state.block;
        long length = event == null ? 0 : RawMemory.getLong(block + ArrowDeviceArrayLayout.ARRAY + ArrowArrayLayout.LENGTH);
        RawMemory.copyWords(block, arrayTarget, DEVICE_ARRAY_SIZE);
        try {
            if (schemaTarget == 0) {
                if (state.hasSchema) {
                    ReleaseCallbacks.releaseSchemaStruct(block + ArrayState.SCHEMA_OFFSET);
                }
            } else if (state.hasSchema) {
                RawMemory.copyWords(block + ArrayState.SCHEMA_OFFSET, schemaTarget, SCHEMA_SIZE);
            } else {
                StructWriter.writeSchema(schemaTarget, array.field);
            }
        } finally {
            NativeHeap.free(block);
        }
        if (event != null) {
            event.finish(array.deviceLabel(), array.field.name(), length, false);
        }
    }

    /** See {@link Interchange#exportShared}: the view holds a reference on the array's structs. */
    static void share(DeviceArray array, MemorySegment deviceArray, MemorySegment schema) {
        long arrayTarget = Pointers.writableStructAddress(deviceArray, ArrowDeviceArrayLayout.LAYOUT, "deviceArray");
        long schemaTarget = schemaTarget(schema);
        ArrayState state = array.state;
        array.acquireReference();
        ArrayExportEvent event = Recorder.arrayExport();
        try {
            StructWriter.writeView(arrayTarget, state.block + ArrowDeviceArrayLayout.ARRAY, array.deviceType.code(), array.deviceId,
                    array.syncEventPointer(), state);
        } catch (RuntimeException | Error e) {
            state.run();
            throw e;
        }
        if (schemaTarget != 0) {
            StructWriter.writeSchema(schemaTarget, array.field);
        }
        if (event != null) {
            event.finish(array.deviceLabel(), array.field.name(), array.length(), true);
        }
    }

    /** See {@link Interchange#exportPlain}: a shared export whose ArrowArray alone is handed over. */
    static void plain(DeviceArray array, MemorySegment arrowArray, MemorySegment schema, PlainExport policy) {
        Objects.requireNonNull(policy, "policy");
        long target = Pointers.writableStructAddress(arrowArray, ArrowArrayLayout.LAYOUT, "arrowArray");
        array.checkOpen();
        if (!array.deviceType.equals(DeviceType.CPU)) {
            if (policy == PlainExport.REFUSE) {
                throw new IllegalArgumentException(array + " is in " + array.deviceLabel() + " memory; the plain C Data interface"
                        + " carries CPU memory only: copy it (PlainExport.COPY_TO_HOST) or export it with Interchange.exportDevice");
            }
            try (DeviceArray host = Copies.toHost(array)) {
                plain(host, arrowArray, schema, policy);
            }
            return;
        }
        MemorySegment struct = NativeHeap.calloc(DEVICE_ARRAY_SIZE);
        long scratch = struct.address();
        try {
            share(array, struct, schema);
            RawMemory.copyWords(scratch + ArrowDeviceArrayLayout.ARRAY, target, ArrowArrayLayout.LAYOUT.byteSize());
        } finally {
            NativeHeap.free(scratch);
        }
    }

    /** @return the schema target's address, 0 when the consumer wants no schema */
    private static long schemaTarget(MemorySegment schema) {
        return schema == null || schema.equals(MemorySegment.NULL) ? 0
                : Pointers.writableStructAddress(schema, ArrowSchemaLayout.LAYOUT, "schema");
    }
}
