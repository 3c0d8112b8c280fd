package dev.quiver.flight;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The plain test server most test classes share (started once per test JVM, landing puts on OpenCL), so
 * that each class does not pay for a JVM start. It exits with the test JVM.
 */
final class SharedServer {
    private static ChildServer server;

    private SharedServer() {}

    /** @return the running shared server */
    static synchronized ChildServer get() {
        if (server == null) {
            try {
                server = ChildServer.start("--put-device", "opencl");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return server;
    }
}
