package dev.quiver.share.internal.posix;

import java.util.Map;

/** Names of the {@code errno} values the sharing calls meet, for messages. Stateless. */
final class Errno {
    private static final Map<Integer, String> NAMES = Map.ofEntries(
            Map.entry(1, "EPERM"), Map.entry(2, "ENOENT"), Map.entry(4, "EINTR"), Map.entry(9, "EBADF"),
            Map.entry(11, "EAGAIN"), Map.entry(12, "ENOMEM"), Map.entry(13, "EACCES"), Map.entry(17, "EEXIST"),
            Map.entry(22, "EINVAL"), Map.entry(24, "EMFILE"), Map.entry(28, "ENOSPC"), Map.entry(32, "EPIPE"),
            Map.entry(36, "ENAMETOOLONG"), Map.entry(38, "ENOSYS"), Map.entry(98, "EADDRINUSE"),
            Map.entry(104, "ECONNRESET"), Map.entry(107, "ENOTCONN"), Map.entry(111, "ECONNREFUSED"));

    private Errno() {}

    static String describe(int errno) {
        return NAMES.getOrDefault(errno, "errno") + " " + errno;
    }
}
