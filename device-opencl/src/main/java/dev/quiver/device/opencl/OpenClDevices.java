package dev.quiver.device.opencl;

import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.device.ffm.FixedProvider;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Objects;

/**
 * Entry points for applications that already use OpenCL (directly, through LWJGL or JOCL): share their
 * context and queue with Quiver instead of making new ones. Stateless; thread-safe.
 *
 * {@snippet class=dev.quiver.device.opencl.snippets.OpenClSnippets region=adopt}
 */
public final class OpenClDevices {
    private OpenClDevices() {}

    /**
     * Wraps an application's context and in-order queue as a Quiver device. Retains both
     * ({@code clRetainContext}, {@code clRetainCommandQueue}); {@link OpenClDevice#close()} releases them, so
     * the application may release its own references whenever it likes. The queue becomes the device's
     * default stream; {@code createStream} makes more queues on the same context. The device id is the
     * queue's device's index among all devices the ICD loader lists, as for devices the provider found.
     *
     * @param context a live {@code cl_context}
     * @param queue   a live in-order {@code cl_command_queue} of {@code context}
     * @return the device, owned by the caller, who closes it once
     * @throws IllegalArgumentException if a handle is NULL, the queue is not one OpenCL accepts, belongs to
     *                                  another context or is out-of-order, or its device is not a root
     *                                  device of a platform
     * @throws DeviceException          if OpenCL is not installed or a query fails ({@link OpenClException})
     */
    public static OpenClDevice adopt(MemorySegment context, MemorySegment queue) {
        Objects.requireNonNull(context, "context");
        Objects.requireNonNull(queue, "queue");
        if (context.equals(MemorySegment.NULL) || queue.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException("cannot adopt a NULL cl_context or cl_command_queue");
        }
        OpenCl cl;
        try {
            cl = OpenClSystem.library();
        } catch (BackendUnavailableException e) {
            throw new DeviceException("OpenCL is not available: " + e.getMessage());
        }
        ClQueueFacts facts = ClQueueFacts.read(cl, queue);
        facts.requireContext(context);
        facts.requireInOrder();
        MemorySegment device = facts.device();
        MemorySegment platform = ClInfo.handle(cl.info(ClFunction.clGetDeviceInfo), device, ClConstants.CL_DEVICE_PLATFORM, "clGetDeviceInfo(CL_DEVICE_PLATFORM)");
        List<ClEnumeration.Handle> all = ClEnumeration.enumerate(cl).devices();
        int id = -1;
        for (int i = 0; i < all.size() && id < 0; i++) {
            if (all.get(i).device().address() == device.address()) {
                id = i;
            }
        }
        if (id < 0) {
            throw new IllegalArgumentException("the queue's device " + Hex.of(device)
                    + " is not a root device of any platform (sub-devices cannot be adopted)");
        }
        ClDeviceInfo info = ClDeviceInfo.read(cl, platform, device, id);
        cl.retainContext(context);
        try {
            cl.retainQueue(queue);
        } catch (RuntimeException e) {
            cl.releaseContext(context);
            throw e;
        }
        return new OpenClDevice(cl, info, MemorySegment.ofAddress(context.address()), MemorySegment.ofAddress(queue.address()), true);
    }

    /**
     * A provider named {@code opencl} that serves exactly the given devices, for
     * {@code dev.quiver.plugin.Backends.devices(List.of(provider), ...)}: the way to use adopted devices with Quiver's API.
     *
     * @param devices devices, typically adopted; the provider borrows them (closing them stays the caller's job)
     * @return the provider; its probe reports these devices, or a reason if the list is empty
     */
    public static DeviceProvider provider(List<OpenClDevice> devices) {
        List<BackendDevice> served = List.copyOf(devices);
        return new FixedProvider("opencl", new int[] {DeviceTypeCodes.OPENCL},
                served.isEmpty() ? ProbeResult.unavailable("no OpenCL device was given to this provider") : ProbeResult.available(served));
    }
}
