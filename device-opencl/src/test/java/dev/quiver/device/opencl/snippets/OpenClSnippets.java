package dev.quiver.device.opencl.snippets;

import dev.quiver.plugin.Backends;
import dev.quiver.Copies;
import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.device.opencl.OpenClDevice;
import dev.quiver.device.opencl.OpenClDevices;
import dev.quiver.host.HostVector;

import java.lang.foreign.MemorySegment;
import java.util.List;

/** The example in the documentation of package {@code dev.quiver.device.opencl}, compiled with the tests. */
final class OpenClSnippets {
    private OpenClSnippets() {}

    @SuppressWarnings("try")   // the example leaves the body to the reader
    static void adopt(long context, long queue, HostVector batch) {
        // @start region="adopt"
        // context and queue are the application's cl_context and cl_command_queue, as raw addresses
        try (OpenClDevice device = OpenClDevices.adopt(MemorySegment.ofAddress(context), MemorySegment.ofAddress(queue))) {
            Devices devices = Backends.devices(List.of(OpenClDevices.provider(List.of(device))), BackendSelection.all());
            Device target = devices.get(DeviceType.OPENCL, device.deviceId());
            try (DeviceArray onHost = batch.toDeviceArray(devices); DeviceArray onDevice = Copies.toDevice(onHost, target)) {
                // onDevice's buffers are cl_mem objects of the application's context
            }
        }
        // @end
    }
}
