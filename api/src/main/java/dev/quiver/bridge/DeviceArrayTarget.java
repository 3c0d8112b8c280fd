package dev.quiver.bridge;

import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.internal.tensor.TensorImport;
import dev.quiver.spi.BackendDevice;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;

/**
 * Makes {@link DeviceArray}s of imported tensors, on the devices of one {@link Devices}. Immutable; safe from
 * any thread.
 *
 * @param devices where to find backends, for copies and for the arrays' later use
 */
public record DeviceArrayTarget(Devices devices) implements TensorImport.Target<DeviceArray> {

    @Override
    public BackendDevice backend(int deviceType, long deviceId) {
        return DeviceBackends.of(DeviceType.of(deviceType), deviceId, devices);
    }

    @Override
    public String deviceName(int deviceType) {
        return DeviceType.of(deviceType).toString();
    }

    @Override
    public DeviceArray adopt(MemorySegment deviceArray, Field field, boolean readOnly) {
        return readOnly ? Interchange.importDevice(deviceArray, field, ImportOptions.on(devices).readOnly(true)) : Interchange.importDevice(deviceArray, field, ImportOptions.on(devices));
    }
}
