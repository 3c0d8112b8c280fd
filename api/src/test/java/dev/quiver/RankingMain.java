package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.testkit.backend.TestDoubleProvider;

import java.util.List;

/** Prints the ranked devices of test double OpenCL and CUDA providers and the host, then the preferred one. */
public final class RankingMain {
    private RankingMain() {}

    /** @param args unused */
    public static void main(String[] args) {
        Devices devices = Backends.devices(List.of(new TestDoubleProvider("ocl", DeviceTypeCodes.OPENCL, 0),
                new TestDoubleProvider("cu", DeviceTypeCodes.CUDA, 0), HostProvider.host()), BackendSelection.all());
        System.out.println(DevicePreferenceTest.names(devices.ranked()));
        Device preferred = devices.preferred();
        System.out.println(preferred.type() + ":" + preferred.id());
    }
}
