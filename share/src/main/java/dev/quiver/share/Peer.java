package dev.quiver.share;

import dev.quiver.share.internal.posix.PeerCredentials;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ProtocolException;

/**
 * The process at the other end of a connection, as the kernel recorded it when the connection was made
 * ({@code SO_PEERCRED}), and the socket it came through.
 *
 * @param pid    its process id
 * @param uid    its user id (always this process's: others are refused)
 * @param socket the socket file's path
 */
public record Peer(int pid, int uid, String socket) {

    static Peer of(PeerCredentials credentials, java.nio.file.Path socket) {
        return new Peer(credentials.pid(), credentials.uid(), socket.toString());
    }

    /** Refuses a peer of another user; {@code role} names it in the reason ("owner", "receiver"). */
    void requireSameUser(String role) {
        if (uid != PeerCredentials.currentUid()) {
            throw new ProtocolException(ErrorCode.PEER_USER, "the " + role + " runs as uid " + uid
                    + "; this process shares with uid " + PeerCredentials.currentUid() + " only");
        }
    }

    @Override
    public String toString() {
        return "process " + pid + " (uid " + uid + ") at " + socket;
    }
}
