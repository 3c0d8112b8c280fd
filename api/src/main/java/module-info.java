/**
 * What applications compile against: device types, devices, device arrays, events and streams over the
 * Arrow C Device Data Interface (arrays and streams, {@code dev.quiver.stream}), DLPack ({@code dev.quiver.dlpack}) and the CUDA Array Interface
 * ({@code dev.quiver.cai}). Finds backends with {@link java.util.ServiceLoader}. The conformance checker for
 * other implementations is the separate module {@code dev.quiver.check}, which alone may use the C ABI layer
 * and the validators.
 *
 * <p>No exported package names a {@code dev.quiver.spi} type in its signatures except {@code dev.quiver.plugin},
 * where the API meets the SPI for plugin authors and for applications that adopt native contexts: those
 * require {@code dev.quiver.spi} themselves. Failures of a device reach applications as
 * {@link dev.quiver.DriverException} and its subclasses, never as a backend's class.
 *
 * <p>Makes restricted FFM calls (upcall stubs for release callbacks and DLPack deleters, downcalls into
 * foreign release callbacks and deleters, reinterpretation of imported pointers), all of them in its C ABI
 * layer: run with {@code --enable-native-access=dev.quiver.api} (or {@code ALL-UNNAMED} on the class path).
 *
 * <p>Records JDK Flight Recorder events ({@code dev.quiver.*}) for array import, export, release and copy
 * and for stream batches, when a recording enables them.
 */
@SuppressWarnings("module")
module dev.quiver.api {
    requires dev.quiver.spi;   // not transitive: only dev.quiver.plugin names its types
    requires jdk.jfr;
    exports dev.quiver;
    exports dev.quiver.abi;
    exports dev.quiver.type;
    exports dev.quiver.host;
    exports dev.quiver.stream;
    exports dev.quiver.dlpack;
    exports dev.quiver.cai;
    exports dev.quiver.memory;
    exports dev.quiver.plugin;
    exports dev.quiver.internal.abi to dev.quiver.check;
    exports dev.quiver.internal.validate to dev.quiver.check;
    uses dev.quiver.spi.DeviceProvider;
}
