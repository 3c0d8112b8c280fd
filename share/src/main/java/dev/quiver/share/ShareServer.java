package dev.quiver.share;

import dev.quiver.spi.IpcMemory;
import dev.quiver.Device;
import dev.quiver.DeviceType;
import dev.quiver.plugin.Backends;
import dev.quiver.share.internal.arrays.KnownRegions;
import dev.quiver.share.internal.posix.PeerCredentials;
import dev.quiver.share.internal.posix.SystemCallException;
import dev.quiver.share.internal.posix.UnixSocket;
import dev.quiver.share.internal.protocol.Connection;
import dev.quiver.share.internal.protocol.DeviceName;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.Handshake;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.share.internal.protocol.Limits;
import dev.quiver.share.internal.protocol.Message;
import dev.quiver.share.internal.protocol.MessageType;
import dev.quiver.share.internal.protocol.ProtocolException;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The owner's end: a Unix domain socket where other processes of the same user connect to receive arrays of
 * this process as handles (docs/SHARING.md). The socket file has mode {@code 0600} and lies in a directory
 * only this user may enter; each connection's peer is checked with {@code SO_PEERCRED} and refused if it runs
 * as another user.
 *
 * {@snippet :
 * try (ShareServer server = ShareServer.bindPrivate();
 *      ShareSession session = server.accept()) {        // a receiver connected and passed the handshake
 *     session.send(array);                              // zero-copy if array lives in a SharedHostArena
 *     session.end();
 *     session.awaitReleased(Duration.ofSeconds(10));
 * }
 * }
 *
 * <p><b>Device.</b> The server serves the CPU device ({@code ARROW_DEVICE_CPU}, id -1) and the devices given to
 * {@link #serve(Device)}; a receiver asking for another device is refused with the reason. To a receiver of a
 * served device whose backend has an inter-process mechanism (CUDA, HIP, Level Zero IPC) and that imports its
 * handle kind, arrays of that device go as the driver's handles, with no copy; other arrays go as host memory.
 *
 * <p><b>Ownership and threading.</b> {@link #accept()} may be called from one thread at a time; {@link #close()}
 * from any thread wakes it. Closing the server removes the socket file (and the directory {@link #bindPrivate()}
 * made) and leaves accepted sessions open.
 */
public final class ShareServer implements AutoCloseable {
    private static final Set<PosixFilePermission> OWNER_ONLY_DIRECTORY = PosixFilePermissions.fromString("rwx------");
    private static final Set<PosixFilePermission> OWNER_ONLY_SOCKET = PosixFilePermissions.fromString("rw-------");
    private static final DeviceName SERVED = new DeviceName(1, -1, DeviceName.NO_UUID);

    private final UnixSocket listener;
    private final Path path;
    private final Path madeDirectory;
    private volatile Duration handshakeTimeout = Duration.ofSeconds(10);
    private final List<Device> served = new CopyOnWriteArrayList<>();

    private ShareServer(UnixSocket listener, Path path, Path madeDirectory) {
        this.listener = listener;
        this.path = path;
        this.madeDirectory = madeDirectory;
    }

    /**
     * Listens at {@code socket}, creating its directory with mode {@code 0700} if it does not exist.
     *
     * @param socket the socket file to create; its directory must be accessible to this user only
     * @return the server
     * @throws IllegalArgumentException if the directory is accessible to others, or the path is too long for a
     *                                  Unix domain socket (107 bytes)
     * @throws ShareException           with {@link ShareException.Reason#SYSTEM} if the socket cannot be made
     *                                  (the file exists, say)
     */
    public static ShareServer bind(Path socket) {
        Path directory = socket.toAbsolutePath().getParent();
        try {
            if (!Files.exists(directory)) {
                Files.createDirectories(directory, PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
            }
            Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(directory, LinkOption.NOFOLLOW_LINKS);
            Set<PosixFilePermission> others = EnumSet.copyOf(permissions);
            others.removeAll(OWNER_ONLY_DIRECTORY);
            if (!others.isEmpty()) {
                throw new IllegalArgumentException("the directory " + directory + " of a share socket must be accessible to its user only; it is "
                        + PosixFilePermissions.toString(permissions));
            }
            return listen(socket, null);
        } catch (IOException e) {
            throw new UncheckedIOException("preparing " + directory, e);
        }
    }

    /**
     * Listens at {@code share.sock} in a new directory of mode {@code 0700} under {@code java.io.tmpdir}, which
     * {@link #close()} removes.
     *
     * @return the server
     */
    public static ShareServer bindPrivate() {
        try {
            Path directory = Files.createTempDirectory("quiver-share-", PosixFilePermissions.asFileAttribute(OWNER_ONLY_DIRECTORY));
            return listen(directory.resolve("share.sock"), directory);
        } catch (IOException e) {
            throw new UncheckedIOException("creating a private directory for a share socket", e);
        }
    }

    private static ShareServer listen(Path socket, Path madeDirectory) throws IOException {
        UnixSocket listener;
        try {
            listener = UnixSocket.listen(socket.toAbsolutePath(), 64);
        } catch (SystemCallException e) {
            throw new ShareException(ShareException.Reason.SYSTEM, "cannot listen at " + socket + ": " + e.getMessage(), e);
        }
        Files.setPosixFilePermissions(socket, OWNER_ONLY_SOCKET);
        return new ShareServer(listener, socket.toAbsolutePath(), madeDirectory);
    }

    /**
     * Sets how long {@link #accept()} waits for a connected receiver's HELLO before refusing it; 10 seconds by
     * default.
     *
     * @param timeout more than zero
     * @return this server
     * @throws IllegalArgumentException if {@code timeout} is not positive
     */
    public ShareServer handshakeTimeout(Duration timeout) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("a handshake timeout is positive, not " + timeout);
        }
        this.handshakeTimeout = timeout;
        return this;
    }

    /**
     * Serves {@code device} too: a receiver may ask for arrays of it (its type, id and UUID). Where its backend
     * has an inter-process mechanism whose handle kind the receiver imports, the sessions of such receivers send
     * the arrays of that device as the driver's handles of its memory, with no copy; otherwise, and for arrays of
     * other devices, the arrays are copied into host memory and the receiver is told so.
     *
     * @param device a device of this process; the CPU is always served
     * @return this server
     */
    public ShareServer serve(Device device) {
        if (device.type() != DeviceType.CPU && !served.contains(device)) {
            served.add(device);
        }
        return this;
    }

    /** {@return the socket file receivers connect to} */
    public Path path() {
        return path;
    }

    /**
     * Waits for a receiver and runs the handshake: its user must be this process's (checked with
     * {@code SO_PEERCRED}), it must speak protocol version 2, ask for the device this server serves, and import
     * memory files. A refused receiver is sent an ERROR with the reason and disconnected.
     *
     * @return the session with the receiver, owned by the caller
     * @throws ShareException naming the peer and the reason if the handshake was refused or failed; the server
     *                        stays usable. {@link ShareException.Reason#SYSTEM} if the server was closed meanwhile
     */
    public ShareSession accept() {
        UnixSocket socket;
        try {
            socket = listener.accept();
        } catch (RuntimeException e) {
            throw new ShareException(ShareException.Reason.SYSTEM, "accepting at " + path + ": " + e.getMessage(), e);
        }
        Connection connection = new Connection(socket);
        String name = "receiver at " + path;
        try {
            Peer peer = Peer.of(connection.peer(), path);
            name = "receiver " + peer;
            peer.requireSameUser("receiver");
            Message message = helloWithin(connection);
            if (message == null) {
                throw Failures.gone(name, "before its HELLO");
            }
            if (message.withoutDescriptors().type() != MessageType.HELLO) {
                throw new ProtocolException(ErrorCode.PROTOCOL, "the first message must be HELLO, not " + message.type());
            }
            int version = Handshake.version(message.body(), "HELLO");
            if (version != Handshake.VERSION) {
                throw new ProtocolException(ErrorCode.VERSION, "the receiver speaks protocol version " + Integer.toUnsignedString(version)
                        + "; this owner speaks version " + Handshake.VERSION + " only (version 2 sends each memory file once and names it by id after)");
            }
            Handshake.Hello hello = Handshake.Hello.decode(message.body());
            Device device = served.stream().filter(d -> DeviceNames.serves(d, hello.device())).findFirst().orElse(null);
            if (device == null && !hello.device().equals(SERVED)) {
                throw new ProtocolException(ErrorCode.DEVICE, "the receiver asked for " + hello.device()
                        + "; this owner serves " + SERVED + " (the CPU)"
                        + served.stream().map(d -> ", " + DeviceNames.of(d) + " (" + d + ")").reduce("", String::concat));
            }
            if ((hello.handleKinds() & HandleKind.MEMFD.bit()) == 0) {
                throw new ProtocolException(ErrorCode.HANDLE_KIND, "the receiver does not import MEMFD handles, which this owner "
                        + "sends for host memory and for every copy");
            }
            IpcRoute route = device == null ? null : route(device, hello.handleKinds(), hello.opensEvents());
            connection.send(MessageType.WELCOME, new Handshake.Welcome(Handshake.VERSION, hello.device(), PeerCredentials.currentPid()).encode());
            return new ShareSession(connection, peer,
                    new KnownRegions(Math.min(hello.maxRegions(), Limits.MAX_IDS), hello.maxMappedBytes()), route);
        } catch (ProtocolException e) {
            connection.sendError(e.code(), e.getMessage());
            connection.close();
            throw new ShareException(Failures.reason(e.code()), "refused " + name + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            connection.close();
            throw Failures.of(e, name);
        }
    }

    /** {@return how arrays of {@code device} travel as handles to a receiver importing {@code kinds}, or null if they do not} */
    private static IpcRoute route(Device device, int kinds, boolean receiverOpensEvents) {
        dev.quiver.spi.BackendDevice backend = Backends.of(device);
        return backend.capability(IpcMemory.class).flatMap(ipc -> HandleKind.of(ipc.ipcMechanism())).filter(kind -> (kinds & kind.bit()) != 0)
                .map(kind -> new IpcRoute(device, backend, kind, receiverOpensEvents && device.interProcessMemory().events()))
                .orElse(null);
    }

    private Message helloWithin(Connection connection) {
        Duration timeout = handshakeTimeout;
        connection.receiveTimeout(Math.max(1, timeout.toMillis()));
        try {
            Message hello = connection.receive();
            connection.receiveTimeout(0);
            return hello;
        } catch (SystemCallException e) {
            if (UnixSocket.isTimeout(e)) {
                throw new ProtocolException(ErrorCode.PROTOCOL, "the receiver sent no HELLO within " + timeout.toMillis() + " ms");
            }
            throw e;
        }
    }

    /** Stops listening and removes the socket file (and the directory {@link #bindPrivate()} made). Sessions stay open. */
    @Override
    public void close() {
        listener.close();
        try {
            Files.deleteIfExists(path);
            if (madeDirectory != null) {
                Files.deleteIfExists(madeDirectory);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("removing " + path, e);
        }
    }

    @Override
    public String toString() {
        return "share server at " + path;
    }
}
