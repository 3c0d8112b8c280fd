package dev.quiver.device.rocm;

import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Serves {@code ARROW_DEVICE_ROCM} and {@code ROCM_HOST} through AMD's HIP runtime: for every HIP device, one
 * device of each memory kind, with the device ordinal as {@code device_id}.
 *
 * <p>The runtime is the first of {@code libamdhip64.so}, {@code libamdhip64.so.6}, {@code libamdhip64.so.5}
 * the dynamic linker finds, unless the system property {@value #LIBRARY_PROPERTY} names a library file (read
 * when {@link #probe()} runs). Construction does no native work. Thread-safe.
 */
public final class RocmProvider implements DeviceProvider {
    /** System property naming the HIP runtime library to load instead of the default names. */
    public static final String LIBRARY_PROPERTY = "quiver.rocm.library";

    private final Path library;

    /** Uses the installed HIP runtime, or the library named by {@value #LIBRARY_PROPERTY}. Does nothing native. */
    public RocmProvider() {
        this.library = null;
    }

    /**
     * Uses the given HIP runtime library file. Does nothing native.
     *
     * @param library the library to load, for example {@code /opt/rocm/lib/libamdhip64.so}
     */
    public RocmProvider(Path library) {
        this.library = Objects.requireNonNull(library);
    }

    @Override
    public String name() {
        return "rocm";
    }

    /** @return what to install or set where this backend is unavailable */
    @Override
    public String setupHint() {
        return "install the HIP runtime (ROCm's libamdhip64.so) on a machine with an AMD GPU, or set -D" + LIBRARY_PROPERTY + "=/path/to/libamdhip64.so";
    }

    @Override
    public int[] deviceTypes() {
        return new int[] {DeviceTypeCodes.ROCM, DeviceTypeCodes.ROCM_HOST};
    }

    @Override
    public ProbeResult probe() {
        try {
            List<BackendDevice> devices = List.copyOf(runtime().devices());
            return ProbeResult.available(devices);
        } catch (BackendUnavailableException e) {
            return e.probeResult();
        } catch (DeviceException e) {
            return ProbeResult.unavailable("ROCm device enumeration failed: " + e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("ROCm HIP runtime unusable: " + e);
        }
    }

    /** {@return the libraries this provider tries, in order: one path, or names for the dynamic linker} */
    public List<String> libraries() {
        if (library != null) {
            return List.of(library.toString());
        }
        String configured = System.getProperty(LIBRARY_PROPERTY);
        return configured == null || configured.isBlank() ? HipRuntime.LIBRARIES : List.of(configured);
    }

    HipRuntime runtime() throws BackendUnavailableException {
        return HipRuntime.open(libraries());
    }
}
