package com.example.quiver.hostext;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.tck.DeviceProviderConformance;

/** The hostext backend against Quiver's conformance suite, exactly as Quiver's own backends run it. */
class HostExtConformanceTest extends DeviceProviderConformance {
    @Override
    protected DeviceProvider provider() {
        return new HostExtProvider();
    }
}
