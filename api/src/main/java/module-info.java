/**
 * What applications compile against: device types, devices, device arrays, events and streams over the
 * Arrow C Device Data Interface (arrays and streams, {@code dev.quiver.stream}), DLPack ({@code dev.quiver.dlpack}) and the CUDA Array Interface
 * ({@code dev.quiver.cai}), and a conformance checker for other implementations of the Arrow C Device Data
 * Interface ({@code dev.quiver.check}). Finds backends with {@link java.util.ServiceLoader}.
 *
 * <p>Makes restricted FFM calls (upcall stubs for release callbacks and DLPack deleters, downcalls into
 * foreign release callbacks and deleters, reinterpretation of imported pointers): run with
 * {@code --enable-native-access=dev.quiver.api} (or {@code ALL-UNNAMED} on the class path).
 */
module dev.quiver.api {
    requires transitive dev.quiver.spi;
    exports dev.quiver;
    exports dev.quiver.abi;
    exports dev.quiver.type;
    exports dev.quiver.host;
    exports dev.quiver.stream;
    exports dev.quiver.dlpack;
    exports dev.quiver.cai;
    exports dev.quiver.check;
    uses dev.quiver.spi.DeviceProvider;
}
