package dev.quiver.tck;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ProbeResult;

/**
 * A provider under test, probed once: it answers every {@link #probe()} with that first result, so that the
 * suite can hand the same devices to {@code Devices} (which serves them behind the API's argument checks) and
 * call them directly (to test the backend itself, with no check in front that could hide a fault).
 * Immutable; thread-safe.
 */
final class ProbedProvider implements DeviceProvider {
    private final DeviceProvider provider;
    private final ProbeResult result;

    /**
     * @param provider the provider under test, probed now
     */
    ProbedProvider(DeviceProvider provider) {
        this.provider = provider;
        this.result = provider.probe();
    }

    /** @return the result of the one probe */
    ProbeResult result() {
        return result;
    }

    @Override
    public String name() {
        return provider.name();
    }

    @Override
    public int[] deviceTypes() {
        return provider.deviceTypes();
    }

    @Override
    public int priority() {
        return provider.priority();
    }

    @Override
    public String setupHint() {
        return provider.setupHint();
    }

    @Override
    public ProbeResult probe() {
        return result;
    }
}
