package dev.quiver.device.opencl;

import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DriverStartLock;
import dev.quiver.spi.ProbeResult;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Finds the usable OpenCL devices of one library: enumerates them, and gives each a context and an in-order
 * queue. Never throws; every failure becomes a reason a user can act on. Stateless; thread-safe.
 */
final class OpenClProbe {
    private static final System.Logger LOG = System.getLogger("dev.quiver.device.opencl");

    private OpenClProbe() {}

    /**
     * @param library the library name or path, normally {@code libOpenCL.so.1}
     * @return the devices, or why there are none
     */
    static ProbeResult probe(String library) {
        try {
            OpenCl cl;
            try {
                cl = OpenCl.load(library);
            } catch (BackendUnavailableException e) {
                return missing(e);
            }
            return probe(cl);
        } catch (Throwable t) {
            return ProbeResult.unavailable("OpenCL probe failed: " + t);
        }
    }

    /**
     * @param e why the library cannot be used
     * @return that reason, with what to install
     */
    static ProbeResult missing(BackendUnavailableException e) {
        return ProbeResult.unavailable(e.getMessage()
                + " (install an OpenCL ICD loader and a driver, for example ocl-icd-libopencl1 and pocl-opencl-icd)");
    }

    /**
     * @param cl a loaded library
     * @return the devices, or why there are none; never throws
     */
    static ProbeResult probe(OpenCl cl) {
        try {
            ClEnumeration.Result found = ClEnumeration.enumerate(cl);
            List<String> reasons = new ArrayList<>(found.reasons());
            List<BackendDevice> devices = new ArrayList<>();
            for (int id = 0; id < found.devices().size(); id++) {
                ClEnumeration.Handle handle = found.devices().get(id);
                try {
                    devices.add(open(cl, ClDeviceInfo.read(cl, handle.platform(), handle.device(), id)));
                } catch (OpenClException e) {
                    reasons.add("device " + id + " on platform " + ClEnumeration.platformName(cl, handle.platform())
                            + " is unusable: " + e.getMessage());
                }
            }
            if (devices.isEmpty()) {
                return new ProbeResult.Unavailable(reasons);
            }
            for (String reason : reasons) {
                LOG.log(System.Logger.Level.INFO, "OpenCL: " + reason);
            }
            return ProbeResult.available(devices);
        } catch (Throwable t) {
            return ProbeResult.unavailable("OpenCL probe failed: " + t);
        }
    }

    private static OpenClDevice open(OpenCl cl, ClDeviceInfo info) {
        MemorySegment context = DriverStartLock.holding(() -> cl.createContext(info.platform(), info.device()));
        try {
            MemorySegment queue = cl.createQueue(context, info.device(), info.hasQueueProperties());
            return new OpenClDevice(cl, info, context, queue, false);
        } catch (RuntimeException e) {
            cl.releaseContext(context);
            throw e;
        }
    }
}
