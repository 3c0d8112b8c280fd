package dev.quiver.stream;

import java.util.Locale;
import java.util.Optional;

/**
 * The {@code errno} codes that the Arrow stream interfaces use to report errors ({@code get_schema},
 * {@code get_next}, {@code extract_data}, {@code on_schema}, {@code on_next_task}, {@code on_error}).
 *
 * <p>The specification fixes the symbolic names, not the numbers: they are the platform's {@code errno.h}
 * values. Each constant carries the value of the platform this JVM runs on (Linux, macOS or Windows; the
 * Linux values are checked against the C compiler in the test suite). Immutable; thread-safe.
 */
public enum Errno {
    /** Operation not permitted. */
    EPERM(1, 1, 1),
    /** No such file or directory (a missing resource). */
    ENOENT(2, 2, 2),
    /** Input/output error: the generic failure of a producer or consumer. */
    EIO(5, 5, 5),
    /** Resource temporarily unavailable. */
    EAGAIN(11, 35, 11),
    /** Out of memory. */
    ENOMEM(12, 12, 12),
    /** Device or resource busy: Quiver's answer to a call made while another call on the same stream runs. */
    EBUSY(16, 16, 16),
    /** No such device. */
    ENODEV(19, 19, 19),
    /** Invalid argument: bad input, a released stream, a broken protocol rule. */
    EINVAL(22, 22, 22),
    /** No space left on device. */
    ENOSPC(28, 28, 28),
    /** Function not implemented. */
    ENOSYS(38, 78, 40),
    /** Value too large for the data type. */
    EOVERFLOW(75, 84, 132),
    /** Timed out. */
    ETIMEDOUT(110, 60, 138),
    /** Operation cancelled. */
    ECANCELED(125, 89, 105);

    private static final int PLATFORM = platform();

    private final int linux;
    private final int macos;
    private final int windows;

    Errno(int linux, int macos, int windows) {
        this.linux = linux;
        this.macos = macos;
        this.windows = windows;
    }

    private static int platform() {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        if (os.contains("mac") || os.contains("darwin")) {
            return 1;
        }
        return os.contains("windows") ? 2 : 0;
    }

    /** {@return this code's value on the platform the JVM runs on} */
    public int code() {
        return switch (PLATFORM) {
            case 1 -> macos;
            case 2 -> windows;
            default -> linux;
        };
    }

    /**
     * {@return the symbolic name, if it is one Quiver knows}
     * @param code an {@code errno} value of this platform
     */
    public static Optional<Errno> of(int code) {
        for (Errno errno : values()) {
            if (errno.code() == code) {
                return Optional.of(errno);
            }
        }
        return Optional.empty();
    }

    /**
     * {@return for example {@code "EIO (5)"}, or {@code "error code 1234"} for codes Quiver does not know}
     * @param code an {@code errno} value of this platform
     */
    public static String describe(int code) {
        return of(code).map(e -> e.name() + " (" + code + ")").orElse("error code " + code);
    }
}
