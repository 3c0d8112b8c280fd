/**
 * The bridge between Apache Arrow Java and Quiver, through Arrow Java's C Data module (arrow-c-data).
 *
 * <ul>
 *   <li>{@link dev.quiver.arrowjava.VectorExport}: a {@code FieldVector} or {@code VectorSchemaRoot} (with its
 *       dictionaries from a {@code DictionaryProvider}) becomes a CPU {@link dev.quiver.DeviceArray} without a
 *       copy: Arrow Java fills an {@code ArrowArray} embedded in an {@code ArrowDeviceArray} that Quiver
 *       allocated with FFM ({@code device_type} CPU, {@code device_id} -1, {@code sync_event} NULL,
 *       {@code reserved} zero), and the DeviceArray's buffer pointers are the vector's own memory.</li>
 *   <li>{@link dev.quiver.arrowjava.VectorImport}: a DeviceArray becomes a {@code FieldVector} or
 *       {@code VectorSchemaRoot} (dictionaries into a {@code CDataDictionaryProvider}); a CPU array without a
 *       copy, an array on any other device only through an explicit copy to the host
 *       ({@link dev.quiver.arrowjava.DeviceCopy#COPY_TO_HOST}).</li>
 *   <li>{@link dev.quiver.arrowjava.StreamExport} and {@link dev.quiver.arrowjava.StreamImport}: an
 *       {@code ArrowReader} becomes an {@code ArrowDeviceArrayStream} or a
 *       {@link dev.quiver.stream.DeviceArrayStream}, and back. A C {@code ArrowArrayStream} reaches the device
 *       stream through arrow-c-data's {@code Data.importArrayStream}.</li>
 * </ul>
 *
 * <p><b>Ownership</b> follows the C Data Interface, and each class states it: an export takes references on
 * Arrow Java's buffers, so the vector and the DeviceArray are independent owners of the same memory; an
 * import consumes the DeviceArray and the vector keeps the memory alive until it (and every vector its
 * buffers were transferred to) is closed. The {@code BufferAllocator} given to any call is charged for what
 * the call creates until its release, so it must outlive the DeviceArrays, vectors and streams made with it.
 * Releases may run on any thread: Quiver's callbacks and Arrow Java's (JNI) both allow it.
 *
 * <p><b>What Arrow Java cannot take</b> is refused before the handover, with the array left to its owner:
 * arrays with a non-zero {@code offset} anywhere in the tree (Arrow Java's importer ignores the offset),
 * 32- and 64-bit decimals (Arrow Java would read them as 128-bit), and, unless the copy is asked for, arrays
 * not on the CPU and read-only arrays (Arrow Java vectors can be written to). Unions that Arrow Java would export inconsistently are refused before the export (see
 * {@link dev.quiver.arrowjava.VectorExport}). Arrow Java names every list element {@code $data$}.
 *
 * <p><b>Running it.</b> Arrow Java reads {@code java.nio.Buffer.address} reflectively, its C Data module is
 * JNI (the Linux, macOS and Windows libraries ship inside the arrow-c-data jar), and this module reads
 * imported structs with FFM, so the JVM needs:
 * <pre>
 * --add-opens=java.base/java.nio=org.apache.arrow.memory.core      (ALL-UNNAMED on the class path)
 * --enable-native-access=dev.quiver.api,dev.quiver.arrowjava,org.apache.arrow.c   (ALL-UNNAMED on the class path)
 * -Dio.netty.noUnsafe=false                                         (JDK 24+: see below)
 * </pre>
 * Arrow Java 19 publishes only the netty allocation manager, which needs {@code sun.misc.Unsafe}; netty 4.2
 * turns Unsafe off by default on JDK 24 and later unless {@code io.netty.noUnsafe} is set, and the allocator
 * then fails to start. On JDK 24+ the JVM warns once that Unsafe's memory methods are deprecated;
 * {@code --sun-misc-unsafe-memory-access=allow} (JDK 23+) silences it. On the module path, keep the four netty
 * jars (netty-buffer, netty-common, arrow-memory-netty, arrow-memory-netty-buffer-patch) on the class path:
 * arrow-memory-netty-buffer-patch adds classes to netty's {@code io.netty.buffer} package, a split package
 * that the module system refuses, and Arrow Java finds the allocator reflectively from the class path.
 */
package dev.quiver.arrowjava;
