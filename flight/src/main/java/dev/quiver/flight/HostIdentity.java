package dev.quiver.flight;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Who this process is, as far as sharing memory files goes: the machine ({@code /etc/machine-id}, which differs
 * between containers of one kernel when each has its own), this boot of its kernel
 * ({@code /proc/sys/kernel/random/boot_id}) and this process's user id. Two processes with equal identities run
 * on one kernel as one user, so that one can connect to the other's Unix socket. Stateless; any thread.
 */
final class HostIdentity {
    private static final Path MACHINE_ID = Path.of("/etc/machine-id");
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
    private static final int MAX_FILE = 256;

    private HostIdentity() {}

    /** {@return this process's identity, or empty where the kernel does not tell it (not Linux)} */
    static Optional<String> current() {
        try {
            String boot = read(BOOT_ID);
            if (boot.isEmpty()) {
                return Optional.empty();
            }
            String machine = Files.isReadable(MACHINE_ID) ? read(MACHINE_ID) : "";
            Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
            return Optional.of("machine=" + machine + ";boot=" + boot + ";uid=" + uid);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException | SecurityException e) {
            return Optional.empty();
        }
    }

    private static String read(Path file) throws IOException {
        byte[] bytes = Files.readAllBytes(file);
        return new String(bytes, 0, Math.min(bytes.length, MAX_FILE), StandardCharsets.US_ASCII).strip();
    }
}
