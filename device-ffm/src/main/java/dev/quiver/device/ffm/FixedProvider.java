package dev.quiver.device.ffm;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ProbeResult;

/**
 * A provider whose every probe answers with one result, fixed when it was made: devices made from an
 * application's own native objects (an adopted {@code CUcontext}, an OpenCL context and queue), served through
 * the API under a backend's name and device types. Never registered as a service; the devices it serves stay
 * whoever's they were. Immutable and thread-safe.
 */
public final class FixedProvider implements DeviceProvider {
    private final String name;
    private final int[] deviceTypes;
    private final ProbeResult result;

    /**
     * @param name        the backend's provider name, for example {@code cuda}
     * @param deviceTypes the device type codes it serves
     * @param result      what every {@link #probe()} returns
     */
    public FixedProvider(String name, int[] deviceTypes, ProbeResult result) {
        this.name = name;
        this.deviceTypes = deviceTypes.clone();
        this.result = result;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int[] deviceTypes() {
        return deviceTypes.clone();
    }

    /** {@return the result given when this provider was made} */
    @Override
    public ProbeResult probe() {
        return result;
    }
}
