/**
 * What applications compile against: device types, devices, device arrays, events and streams over the
 * Arrow C Device Data Interface, and a conformance checker for other implementations of it. Finds
 * backends with {@link java.util.ServiceLoader}.
 *
 * <p>Makes restricted FFM calls (upcall stubs for release callbacks, downcalls into foreign release
 * callbacks, reinterpretation of imported pointers): run with
 * {@code --enable-native-access=dev.quiver.api} (or {@code ALL-UNNAMED} on the class path).
 */
module dev.quiver.api {
    requires transitive dev.quiver.spi;
    exports dev.quiver;
    exports dev.quiver.abi;
    exports dev.quiver.type;
    exports dev.quiver.host;
    exports dev.quiver.check;
    uses dev.quiver.spi.DeviceProvider;
}
