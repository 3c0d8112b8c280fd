/**
 * The bridge between Apache Arrow Java ({@code FieldVector}, {@code VectorSchemaRoot}, {@code ArrowReader})
 * and Quiver ({@code DeviceArray}, {@code DeviceArrayStream}) through Arrow Java's C Data module: zero-copy
 * for CPU arrays, an explicit copy to the host for arrays on other devices.
 *
 * <p>Grant native access to this module and to {@code dev.quiver.api} ({@code --enable-native-access}),
 * and open {@code java.nio} to Arrow Java's memory module
 * ({@code --add-opens=java.base/java.nio=org.apache.arrow.memory.core}, or {@code ALL-UNNAMED} on the class
 * path): see the package documentation.
 */
module dev.quiver.arrowjava {
    requires transitive dev.quiver.api;
    requires transitive org.apache.arrow.vector;
    requires transitive org.apache.arrow.c;
    requires transitive org.apache.arrow.memory.core;
    exports dev.quiver.arrowjava;
}
