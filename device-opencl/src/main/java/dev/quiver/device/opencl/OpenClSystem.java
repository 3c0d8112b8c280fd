package dev.quiver.device.opencl;

import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.spi.ProbeResult;

/**
 * The process-wide OpenCL state: the library named by the system property {@code quiver.opencl.library}
 * (default {@code libOpenCL.so.1}, the ICD loader), loaded on first use, and the devices its probe found,
 * kept for the life of the process. Nothing happens at class initialisation. Thread-safe.
 */
final class OpenClSystem {
    /** System property naming the OpenCL library (a soname or a path). */
    static final String LIBRARY_PROPERTY = "quiver.opencl.library";

    private static OpenCl library;
    private static String libraryFailure;
    private static ProbeResult probe;

    private OpenClSystem() {}

    /**
     * @return the loaded library
     * @throws BackendUnavailableException if it cannot be loaded (the same failure on every call)
     */
    static synchronized OpenCl library() {
        if (library == null && libraryFailure == null) {
            String name = System.getProperty(LIBRARY_PROPERTY, OpenCl.LOADER);
            try {
                library = OpenCl.load(name);
            } catch (BackendUnavailableException e) {
                libraryFailure = e.getMessage();
            }
        }
        if (library == null) {
            throw new BackendUnavailableException(libraryFailure);
        }
        return library;
    }

    /** @return the devices of the process-wide library, probed once; never throws */
    static synchronized ProbeResult probe() {
        if (probe == null) {
            OpenCl cl;
            try {
                cl = library();
            } catch (BackendUnavailableException e) {
                probe = OpenClProbe.missing(e);
                return probe;
            } catch (Throwable t) {
                return ProbeResult.unavailable("OpenCL probe failed: " + t);
            }
            probe = OpenClProbe.probe(cl);
        }
        return probe;
    }
}
