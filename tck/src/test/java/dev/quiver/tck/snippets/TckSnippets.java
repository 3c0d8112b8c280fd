package dev.quiver.tck.snippets;

import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;
import dev.quiver.tck.DeviceProviderConformance;

import java.util.List;

/** The example in the documentation of package {@code dev.quiver.tck}, compiled with the tests (not run). */
final class TckSnippets {
    private TckSnippets() {}

    /** Stands in for a vendor's provider. */
    static final class MyProvider implements DeviceProvider {
        @Override
        public String name() {
            return "mine";
        }

        @Override
        public int[] deviceTypes() {
            return new int[] {DeviceTypeCodes.EXT_DEV};
        }

        @Override
        public ProbeResult probe() {
            return new ProbeResult.Unavailable(List.of("a stand-in"));
        }
    }

    // @start region="conformance"
    class MyBackendConformanceTest extends DeviceProviderConformance {
        @Override
        protected DeviceProvider provider() {
            return new MyProvider();
        }
    }
    // @end
}
