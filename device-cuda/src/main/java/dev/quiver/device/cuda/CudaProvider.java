package dev.quiver.device.cuda;

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
 * Serves {@code ARROW_DEVICE_CUDA}, {@code CUDA_HOST} and {@code CUDA_MANAGED} through the CUDA driver API:
 * for every CUDA device, one device of each memory kind ({@code CUDA_MANAGED} only where the device
 * supports managed memory), all working in the device's primary context, with the device ordinal as
 * {@code device_id}.
 *
 * <p>The driver is {@code libcuda.so.1}, found by the dynamic linker, unless the system property
 * {@value #LIBRARY_PROPERTY} names another library file (read when {@link #probe()} runs). Construction does
 * no native work; the first probe loads and initialises the driver and retains the primary contexts, which
 * stay retained for the life of the process. Thread-safe.
 */
public final class CudaProvider implements DeviceProvider {
    /** System property naming the CUDA driver library to load instead of {@code libcuda.so.1}. */
    public static final String LIBRARY_PROPERTY = "quiver.cuda.library";
    /** The driver library's soname. */
    public static final String DEFAULT_LIBRARY = "libcuda.so.1";

    private final Path library;

    /** Uses {@code libcuda.so.1}, or the library named by {@value #LIBRARY_PROPERTY}. Does nothing native. */
    public CudaProvider() {
        this.library = null;
    }

    /**
     * Uses the given driver library file. Does nothing native.
     *
     * @param library the CUDA driver library to load, for example {@code /usr/lib64/libcuda.so.1}
     */
    public CudaProvider(Path library) {
        this.library = Objects.requireNonNull(library);
    }

    @Override
    public String name() {
        return "cuda";
    }

    /** @return what to install or set where this backend is unavailable */
    @Override
    public String setupHint() {
        return "install the NVIDIA driver (libcuda.so.1) on a machine with an NVIDIA GPU, or set -D" + LIBRARY_PROPERTY + "=/path/to/libcuda.so.1";
    }

    @Override
    public int[] deviceTypes() {
        return new int[] {DeviceTypeCodes.CUDA, DeviceTypeCodes.CUDA_HOST, DeviceTypeCodes.CUDA_MANAGED};
    }

    @Override
    public ProbeResult probe() {
        try {
            List<BackendDevice> devices = List.copyOf(driver().devices());
            return ProbeResult.available(devices);
        } catch (BackendUnavailableException e) {
            return e.probeResult();
        } catch (DeviceException e) {
            return ProbeResult.unavailable("CUDA device enumeration failed: " + e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("CUDA driver unusable: " + e);
        }
    }

    /** {@return the library this provider loads: a path, or a name for the dynamic linker's search} */
    public String library() {
        if (library != null) {
            return library.toString();
        }
        String configured = System.getProperty(LIBRARY_PROPERTY);
        return configured == null || configured.isBlank() ? DEFAULT_LIBRARY : configured;
    }

    CudaDriver driver() throws BackendUnavailableException {
        return CudaDriver.open(library());
    }
}
