package dev.quiver.device.metal;

import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.device.ffm.Once;
import dev.quiver.device.ffm.VendorLibrary;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serves {@code ARROW_DEVICE_METAL} on macOS: the system default Metal device
 * ({@code MTLCreateSystemDefaultDevice}) as device 0, allocating buffers of one storage mode
 * ({@code private} unless the system property {@value #STORAGE_PROPERTY} says {@code shared}, read when
 * {@link #probe()} runs). Elsewhere the probe reports that Metal is macOS only, without touching any native
 * library. Construction does no native work. Thread-safe.
 */
public final class MetalProvider implements DeviceProvider {
    /** System property choosing the storage mode: {@code private} (default) or {@code shared}. */
    public static final String STORAGE_PROPERTY = "quiver.metal.storage";

    private static final Once<ObjcRuntime> RUNTIME = new Once<>();
    private static final Map<MetalStorage, Once<MetalDevice>> DEVICES = new ConcurrentHashMap<>();

    private final MetalStorage storage;

    /** Uses the storage mode the system property names. Does nothing native. */
    public MetalProvider() {
        this.storage = null;
    }

    /**
     * Uses the given storage mode, whatever the system property says. Does nothing native.
     *
     * @param storage the storage mode of the buffers the device allocates
     */
    public MetalProvider(MetalStorage storage) {
        this.storage = storage;
    }

    @Override
    public String name() {
        return "metal";
    }

    /** @return what to install or set where this backend is unavailable */
    @Override
    public String setupHint() {
        return "run on macOS (a Mac with a Metal GPU)";
    }

    @Override
    public int[] deviceTypes() {
        return new int[] {DeviceTypeCodes.METAL};
    }

    @Override
    public ProbeResult probe() {
        String os = System.getProperty("os.name", "unknown");
        if (!os.toLowerCase(Locale.ROOT).startsWith("mac")) {
            return ProbeResult.unavailable("macOS only (this is " + os + ")");
        }
        try {
            MetalStorage mode = storage();
            return ProbeResult.available(List.of(DEVICES.computeIfAbsent(mode, m -> new Once<>()).get(() -> open(mode))));
        } catch (BackendUnavailableException e) {
            return e.probeResult();
        } catch (DeviceException e) {
            return ProbeResult.unavailable("Metal device setup failed: " + e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("Metal unusable: " + e);
        }
    }

    private static MetalDevice open(MetalStorage storage) throws BackendUnavailableException {
        ObjcRuntime objc;
        try {
            objc = RUNTIME.get(ObjcRuntime::load);
        } catch (VendorLibrary.NotFoundException e) {
            throw new BackendUnavailableException("Metal not available: " + e.getMessage());
        }
        MemorySegment device = objc.systemDefaultDevice();
        if (device.equals(MemorySegment.NULL)) {
            throw new BackendUnavailableException("no Metal device: MTLCreateSystemDefaultDevice returned nil");
        }
        String name = objc.inPool(() -> objc.string(objc.object(device, MetalMessage.name)));
        return new MetalDevice(objc, device, storage, name, objc.integer(device, MetalMessage.recommendedMaxWorkingSetSize));
    }

    /**
     * {@return the storage mode of the buffers the device allocates}
     * @throws IllegalArgumentException if {@value #STORAGE_PROPERTY} names no mode
     */
    public MetalStorage storage() {
        if (storage != null) {
            return storage;
        }
        String configured = System.getProperty(STORAGE_PROPERTY);
        return configured == null || configured.isBlank() ? MetalStorage.PRIVATE : MetalStorage.parse(configured);
    }
}
