package dev.quiver.testkit;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * Opening and closing POSIX file descriptors through the C library, for inter-process memory whose handle is
 * a descriptor: a peer process opens {@code /proc/<pid>/fd/<fd>} of the exporter (which works between
 * processes of the same user) to get its own descriptor of the same file. Stateless; thread-safe.
 */
public final class PosixFiles {
    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 0x80000;
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle OPEN = LINKER.downcallHandle(LINKER.defaultLookup().find("open").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2));
    private static final MethodHandle CLOSE = LINKER.downcallHandle(LINKER.defaultLookup().find("close").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private PosixFiles() {}

    /**
     * {@return the path through which another process of the same user opens {@code fd} of this process}
     * @param fd an open descriptor of this process
     */
    public static String procPath(int fd) {
        return "/proc/" + ProcessHandle.current().pid() + "/fd/" + fd;
    }

    /**
     * Opens a file for reading and writing.
     *
     * @param path the file, such as a {@link #procPath} of another process
     * @return the new descriptor, owned by the caller
     * @throws IllegalStateException if {@code open} fails
     */
    public static int open(String path) {
        try (Arena arena = Arena.ofConfined()) {
            int fd = (int) OPEN.invokeExact(arena.allocateFrom(path), O_RDWR | O_CLOEXEC, 0);
            if (fd < 0) {
                throw new IllegalStateException("cannot open " + path);
            }
            return fd;
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("open(" + path + ") failed", e);
        }
    }

    /**
     * Closes a descriptor.
     *
     * @param fd the descriptor, owned by the caller
     * @throws IllegalStateException if {@code close} fails
     */
    public static void close(int fd) {
        int result;
        try {
            result = (int) CLOSE.invokeExact(fd);
        } catch (Throwable e) {
            throw new IllegalStateException("close(" + fd + ") failed", e);
        }
        if (result != 0) {
            throw new IllegalStateException("close(" + fd + ") failed");
        }
    }
}
