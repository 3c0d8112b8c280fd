/**
 * The Quiver conformance kit: JUnit suites a backend extends to prove it honours the SPI contract and the
 * Arrow C Device Data Interface. Compiles and loads C at test time: grant it native access.
 */
module dev.quiver.tck {
    requires transitive dev.quiver.api;
    requires transitive dev.quiver.spi;   // its checks take a DeviceProvider
    requires transitive org.junit.jupiter.api;
    requires org.junit.jupiter.params;
    requires dev.quiver.testkit;
    exports dev.quiver.tck;
    opens dev.quiver.tck to org.junit.platform.commons;
}
