package dev.quiver.share.internal.posix;

/**
 * Who is at the other end of a Unix domain socket, as the kernel saw it when the connection was made
 * ({@code SO_PEERCRED}).
 *
 * @param pid the peer's process id
 * @param uid the peer's user id
 * @param gid the peer's group id
 */
public record PeerCredentials(int pid, int uid, int gid) {
    /** {@return this process's user id} */
    public static int currentUid() {
        return Libc.getuid();
    }

    /** {@return this process's id} */
    public static int currentPid() {
        return Libc.getpid();
    }
}
