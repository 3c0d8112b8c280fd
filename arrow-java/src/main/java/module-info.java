/**
 * The bridge between Apache Arrow Java ({@code FieldVector}, {@code VectorSchemaRoot}, {@code ArrowReader})
 * and Quiver ({@code DeviceArray}, {@code DeviceArrayStream}) through Arrow Java's C Data module: zero-copy
 * for CPU arrays, an explicit copy to the host for arrays on other devices.
 *
 * <p>Makes restricted FFM calls (reading the structs it hands over): grant native access to this module, to
 * {@code dev.quiver.api} and to {@code org.apache.arrow.c} (which loads its JNI library), open {@code java.nio}
 * to Arrow Java's memory module ({@code --add-opens=java.base/java.nio=org.apache.arrow.memory.core}), and on
 * JDK 24+ set {@code -Dio.netty.noUnsafe=false} for Arrow Java's netty allocator, which stays on the class path
 * (its patch jar splits the {@code io.netty.buffer} package): see the package documentation.
 */
module dev.quiver.arrowjava {
    requires transitive dev.quiver.api;
    requires transitive org.apache.arrow.vector;
    requires transitive org.apache.arrow.c;
    requires transitive org.apache.arrow.memory.core;
    requires static org.checkerframework.checker.qual;   // to read the annotations on Arrow Java's classes
    exports dev.quiver.arrowjava;
}
