package dev.quiver.testsupport;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import dev.quiver.spi.host.HostDevice;

import java.util.List;

/** Gives tests in any package the process's host device behind a provider, as the CPU backend serves it. */
public final class HostProvider {
    private HostProvider() {}

    /**
     * @return a provider named {@code cpu} serving the one host device, as the CPU backend does, for tests
     *         of the API module, which has no backend of its own
     */
    public static DeviceProvider host() {
        return new Serving("cpu", DeviceTypeCodes.CPU, HostDevice.instance());
    }

    /** A provider of one device that is always available. */
    private record Serving(String name, int code, BackendDevice device) implements DeviceProvider {
        @Override
        public int[] deviceTypes() {
            return new int[] {code};
        }

        @Override
        public ProbeResult probe() {
            return ProbeResult.available(List.of(device));
        }
    }
}
