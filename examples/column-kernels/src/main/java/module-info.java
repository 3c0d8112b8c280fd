/**
 * Int64 column kernels that run where the column lives: on the host for CPU arrays, as OpenCL C kernels of
 * their own on OpenCL devices, and on a host copy for every other device. Built on Quiver's public API
 * alone ({@code dev.quiver.api}); the backends are the application's choice.
 *
 * <p>Makes restricted FFM calls (it loads {@code libOpenCL.so.1} and calls into it): run with
 * {@code --enable-native-access=com.example.columns} (or {@code ALL-UNNAMED} on the class path).
 */
module com.example.columns {
    requires dev.quiver.api;
    exports com.example.columns;
}
