package dev.quiver.share;

import dev.quiver.Copies;
import dev.quiver.spi.IpcMemory;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.plugin.Backends;
import dev.quiver.share.internal.arrays.BatchImport;
import dev.quiver.share.internal.arrays.RegionCache;
import dev.quiver.share.internal.posix.SystemCallException;
import dev.quiver.share.internal.posix.UnixSocket;
import dev.quiver.share.internal.protocol.Allowance;
import dev.quiver.share.internal.protocol.ByteWriter;
import dev.quiver.share.internal.protocol.Connection;
import dev.quiver.share.internal.protocol.DeviceName;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.Handshake;
import dev.quiver.share.internal.protocol.IdList;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.share.internal.protocol.Message;
import dev.quiver.share.internal.protocol.MessageType;
import dev.quiver.share.internal.protocol.ProtocolException;
import dev.quiver.share.internal.protocol.SchemaCodec;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.type.Field;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Optional;

/**
 * The receiver's end: connects to a {@link ShareServer} of another process (of the same user) and receives
 * its arrays as ordinary {@link dev.quiver.DeviceArray}s that read the owner's memory: CPU arrays of memory
 * files mapped into this process, or, for a client of a device whose backend has an inter-process mechanism,
 * arrays of that device over the owner's device memory opened from the driver's handles (docs/SHARING.md).
 *
 * {@snippet :
 * try (ShareClient client = ShareClient.connect(socket)) {
 *     for (Optional<ReceivedBatch> batch = client.next(); batch.isPresent(); batch = client.next()) {
 *         try (DeviceArray array = batch.get().array()) {
 *             // read it; closing it tells the owner
 *         }
 *     }
 * }
 * }
 *
 * <p><b>Trust.</b> What arrives is untrusted: descriptors must be memory files sealed against shrinking, whose
 * size is checked ({@code fstat}) against every buffer's offset and length; counts and nesting are bounded;
 * the array's structure is checked as an import is, and its contents too unless
 * {@link ReceiveOptions#validateContents()} is off. Before that, every BATCH must come within the allowance the
 * REQUESTs sent before it arrived granted, carry an id that is not 0 and larger than the one before, and have
 * every reserved field 0; a region that cannot be mapped refuses its batch too. A batch that fails a check is
 * refused: the owner is sent an ERROR naming it, the connection ends, and {@link #next()} throws. The receiver
 * waits no longer than {@link ReceiveOptions#handshakeTimeout()} for the owner's WELCOME.
 *
 * <p><b>Ownership.</b> Arrays received belong to the caller and stay readable after the client is closed and
 * after the owner exits (the mapped pages stay). The client keeps the owner's memory files mapped for later
 * batches in them (within {@link ReceiveOptions#maxRegions()} and {@link ReceiveOptions#maxMappedBytes()}) until
 * the owner retires them or the client is closed; a file no open array uses is then unmapped at once, the others
 * when their last array is closed. Closing an array tells the owner, while the connection is open: releases are
 * held back and travel together, when {@link #next()} has read every message the owner sent so far and is about
 * to wait for more, with the REQUEST that tops up the window, or once 256 are held (at once when a thread closes
 * an array while {@code next()} waits, after the end of the stream, and at {@link #close()}). An owner ahead of its
 * receiver thus hears of releases once per read of several batches, not once per batch.
 *
 * <p><b>Threading.</b> {@link #next()} from one thread at a time; received arrays may be closed from any thread.
 */
public final class ShareClient implements AutoCloseable {
    /** The most releases held back before they travel without waiting for the next call of {@link #next()}. */
    private static final int MAX_PENDING_RELEASES = 256;
    private final Connection connection;
    private final Peer owner;
    private final String ownerName;
    private final Field schema;
    private final Device device;
    private final ReceiveOptions options;
    private final RegionCache regions;
    private final Object releaseLock = new Object();
    private long[] pendingReleases = new long[64];
    private int pendingCount;
    /** Set while {@link #next()} waits for a message: a release then travels at once. */
    private volatile boolean waiting;
    private volatile boolean ended;
    /** The batches this receiver allowed with REQUEST and received: checked at every BATCH. */
    private final Allowance allowance = new Allowance();
    private ShareException failure;
    private volatile boolean closed;

    private ShareClient(Connection connection, Peer owner, Field schema, Device device, ReceiveOptions options) {
        this.connection = connection;
        this.owner = owner;
        this.ownerName = "owner " + owner;
        this.schema = schema;
        this.device = device;
        this.options = options;
        this.regions = new RegionCache(options.maxRegions(), options.maxMappedBytes());
    }

    /**
     * Connects for arrays of the CPU of {@link Devices#system()}, with the {@linkplain ReceiveOptions#defaults() default options}.
     *
     * @param socket the owner's socket file
     * @return the client, after the handshake and the schema
     * @throws ShareException naming the owner and the reason if nobody listens there, the owner runs as another
     *                        user, or it refuses the handshake (another protocol version, another device)
     */
    public static ShareClient connect(Path socket) {
        return connect(socket, Devices.system().cpu(), ReceiveOptions.defaults());
    }

    /**
     * Connects for arrays of {@code device}.
     *
     * @param socket  the owner's socket file
     * @param device  the device the arrays are to be of; the owner refuses one it does not serve (it serves the
     *                CPU and the devices given to {@link ShareServer#serve}). Where the device's backend has an
     *                inter-process mechanism (CUDA, HIP, Level Zero IPC), the owner's arrays of that device arrive as
     *                arrays of {@code device} that use the owner's memory, opened from the driver's handles;
     *                closing one closes what was opened. Other arrays arrive as CPU arrays in host memory
     * @param options how to receive
     * @return the client, after the handshake and the schema
     * @throws ShareException naming the owner and the reason if the connection or the handshake fails
     */
    public static ShareClient connect(Path socket, Device device, ReceiveOptions options) {
        String name = "owner at " + socket;
        boolean welcomed = false;
        Connection connection;
        try {
            connection = new Connection(UnixSocket.connect(socket.toAbsolutePath()));
        } catch (RuntimeException e) {
            throw new ShareException(ShareException.Reason.SYSTEM, "cannot connect to the " + name + ": " + e.getMessage(), e);
        }
        try {
            Peer owner = Peer.of(connection.peer(), socket);
            name = "owner " + owner;
            owner.requireSameUser("owner");
            connection.receiveTimeout(options.handshakeMillis());   // the wait for WELCOME
            DeviceName asked = DeviceNames.of(device);
            connection.send(MessageType.HELLO, new Handshake.Hello(Handshake.VERSION, asked, handleKinds(device),
                    options.maxRegions(), options.maxMappedBytes(), device.interProcessMemory().events() ? Handshake.Hello.EVENTS : 0).encode());
            Handshake.Welcome welcome = Handshake.Welcome.decode(expect(connection, MessageType.WELCOME, name, "WELCOME").body());
            if (welcome.version() != Handshake.VERSION) {
                throw new ProtocolException(ErrorCode.VERSION, "the owner answered with protocol version " + welcome.version()
                        + "; this receiver speaks version " + Handshake.VERSION);
            }
            if (!welcome.device().equals(asked)) {
                throw new ProtocolException(ErrorCode.DEVICE, "the owner serves " + welcome.device() + "; this receiver asked for " + asked);
            }
            welcomed = true;
            // every later wait, SCHEMA's too (an owner may send it with its first batch), as the stream's: 0 waits as long as it lives
            connection.receiveTimeout(options.timeout().toMillis());
            Field schema = SchemaCodec.decode(expect(connection, MessageType.SCHEMA, name, "SCHEMA").body());
            return new ShareClient(connection, owner, schema, device, options);
        } catch (ProtocolException e) {
            connection.sendError(e.code(), e.getMessage());
            connection.close();
            throw new ShareException(Failures.reason(e.code()), "refused the " + name + ": " + e.getMessage(), e);
        } catch (SystemCallException e) {
            if (welcomed || !UnixSocket.isTimeout(e)) {
                connection.close();
                throw Failures.of(e, name);
            }
            String reason = "the owner sent no WELCOME within " + options.handshakeMillis() + " ms (the receiver's handshake bound)";
            connection.sendError(ErrorCode.PROTOCOL, reason);   // the owner is told why, as a receiver silent past HELLO's bound is
            connection.close();
            throw new ShareException(ShareException.Reason.TIMEOUT, "gave up on the " + name + ": " + reason, e);
        } catch (RuntimeException e) {
            connection.close();
            throw Failures.of(e, name);
        }
    }

    /** {@return the handle kinds this receiver imports for {@code device}: memory files, and its backend's IPC handles} */
    private static int handleKinds(Device device) {
        int kinds = HandleKind.MEMFD.bit();
        if (device.type() != DeviceType.CPU) {
            kinds |= Backends.of(device).capability(IpcMemory.class).flatMap(ipc -> HandleKind.of(ipc.ipcMechanism())).map(HandleKind::bit).orElse(0);
        }
        return kinds;
    }

    private static Message expect(Connection connection, MessageType type, String name, String what) {
        Message message = connection.receive();
        if (message == null) {
            throw Failures.gone(name, "before its " + what);
        }
        message.withoutDescriptors();
        if (message.type() == MessageType.ERROR) {
            throw Failures.refused(ErrorMessage.decode(message.body()), name);
        }
        if (message.type() != type) {
            throw new ProtocolException(ErrorCode.PROTOCOL, "expected " + type + ", got " + message.type());
        }
        return message;
    }

    /** {@return the schema of every batch} */
    public Field schema() {
        return schema;
    }

    /** {@return the owning process} */
    public Peer owner() {
        return owner;
    }

    /**
     * Receives the next batch.
     *
     * @return the batch, or empty at the end of the stream
     * @throws ShareException naming the owner if it died or closed before the end
     *                        ({@link ShareException.Reason#PEER_GONE}), sent an ERROR, or sent a batch that fails
     *                        the checks; failures are sticky
     * @throws IllegalStateException if the client is closed
     */
    public Optional<ReceivedBatch> next() {
        if (closed) {
            throw new IllegalStateException("the client is closed");
        }
        if (failure != null) {
            throw new ShareException(failure.reason(), failure.getMessage(), failure);
        }
        if (ended) {
            return Optional.empty();
        }
        String name = ownerName;
        try {
            byte[] request = null;
            long outstanding = allowance.outstanding();
            if (outstanding <= options.window() / 2) {   // top the window up in one REQUEST once half of it is used
                int more = (int) (options.window() - outstanding);
                request = new ByteWriter().u32(more).toByteArray();
                allowance.grant(more, connection.reads());
            }
            if (request != null) {
                try {
                    flushReleases(request);
                } catch (RuntimeException ownerClosed) {
                    // an owner that ended the stream may have closed already: END (or the loss) is read below
                }
            }
            while (true) {
                Message message;
                try {
                    message = connection.receive(this::beforeWaiting);
                } finally {
                    waiting = false;
                }
                if (message == null) {
                    throw Failures.gone(name, "before the end of the stream");
                }
                switch (message.type()) {
                    case BATCH -> {
                        admit(message);
                        BatchImport.Imported imported = BatchImport.run(message, schema, device, options.validateContents(),
                                this::released, regions);
                        return Optional.of(new ReceivedBatch(imported.array(), imported.copied(), imported.batchId()));
                    }
                    case REGION_CLOSED -> {
                        message.withoutDescriptors();
                        for (long id : IdList.decode(message.body(), "REGION_CLOSED")) {
                            regions.retire(id);
                        }
                        waiting = true;
                        flushQuietly();
                    }
                    case END -> {
                        message.withoutDescriptors();
                        ended = true;
                        flushQuietly();
                        return Optional.empty();
                    }
                    case ERROR -> {
                        message.withoutDescriptors();
                        throw Failures.refused(ErrorMessage.decode(message.body()), name);
                    }
                    default -> {
                        message.closeDescriptors();
                        throw new ProtocolException(ErrorCode.PROTOCOL, "an owner does not send " + message.type() + " after the handshake");
                    }
                }
            }
        } catch (ProtocolException e) {
            connection.sendError(e.code(), e.getMessage());
            connection.shutdown();
            failure = Failures.of(e, name);
            throw failure;
        } catch (RuntimeException e) {
            failure = Failures.of(e, name);
            if (failure.reason() == ShareException.Reason.TIMEOUT) {
                connection.shutdown();   // given up on: the owner reads the end and lets go of every batch
            }
            throw failure;
        }
    }

    /** Checks the BATCH's allowance and id before anything of it is mapped; refused, its descriptors are closed. */
    private void admit(Message batch) {
        try {
            allowance.admit(batch.body(), connection.reads());
        } catch (ProtocolException e) {
            batch.closeDescriptors();
            throw e;
        }
    }

    /**
     * This client's batches as a {@link DeviceArrayStream} of arrays on its device (the CPU unless
     * {@link #connect(Path, Device, ReceiveOptions)} named another), for code that takes one (an export to a C
     * consumer, a Flight server): each array moves to the consumer, a batch that came as a host copy copied to the
     * device first; a failure of {@link #next()} fails the stream. The stream owns this client from now on: closing it closes the client.
     *
     * @return the stream, owned by the caller
     */
    public DeviceArrayStream stream() {
        final class Batches implements Iterator<DeviceArray>, AutoCloseable {
            private DeviceArray ahead;
            private boolean done;

            @Override
            public boolean hasNext() {
                if (ahead == null && !done) {
                    Optional<ReceivedBatch> batch = ShareClient.this.next();
                    ahead = batch.map(received -> onDevice(received.array())).orElse(null);
                    done = ahead == null;
                }
                return ahead != null;
            }

            @Override
            public DeviceArray next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("the owner ended the stream");
                }
                DeviceArray next = ahead;
                ahead = null;
                return next;
            }

            @Override
            public void close() {
                if (ahead != null) {
                    ahead.close();
                    ahead = null;
                }
                ShareClient.this.close();
            }
        }
        return DeviceArrayStream.of(schema, device.type(), new Batches());
    }

    /** @return {@code array} on this client's device: a batch that came as a host copy is copied there (and closed) */
    private DeviceArray onDevice(DeviceArray array) {
        if (array.deviceType().equals(device.type())) {
            return array;
        }
        try (array) {
            return Copies.toDevice(array, device);
        }
    }

    private void released(long batchId) {
        if (closed) {
            return;
        }
        boolean full;
        synchronized (releaseLock) {
            if (pendingCount == pendingReleases.length) {
                pendingReleases = java.util.Arrays.copyOf(pendingReleases, pendingCount * 2);
            }
            pendingReleases[pendingCount++] = batchId;
            full = pendingCount >= MAX_PENDING_RELEASES;
        }
        if (waiting || ended || full) {
            flushQuietly();
        }
    }

    /** Releases travel together, when the reader is about to wait for the owner, or with a REQUEST. */
    private void beforeWaiting() {
        waiting = true;
        flushQuietly();
    }

    private void flushQuietly() {
        try {
            flushReleases(null);
        } catch (RuntimeException ownerGone) {
            // the owner let go of everything when the connection ended
        }
    }

    /** Sends the pending releases as one RELEASED, and {@code request} as a REQUEST with it, in one write. */
    private void flushReleases(byte[] request) {
        synchronized (releaseLock) {
            if (pendingCount == 0 && request == null) {
                return;
            }
            int count = pendingCount;
            pendingCount = 0;
            if (count == 0) {
                connection.send(MessageType.REQUEST, request);
            } else if (request == null) {
                connection.send(MessageType.RELEASED, IdList.encode(pendingReleases, count));
            } else {
                connection.send(new MessageType[] {MessageType.RELEASED, MessageType.REQUEST},
                        new byte[][] {IdList.encode(pendingReleases, count), request});
            }
        }
    }

    /**
     * Ends the connection, after sending the releases still held back; arrays received stay readable, and the
     * owner's memory files no array uses are unmapped. Later calls do nothing.
     */
    @Override
    public void close() {
        if (!closed) {
            flushQuietly();
            closed = true;
            regions.close();
            connection.close();
        }
    }

    @Override
    public String toString() {
        return "share client of " + owner;
    }
}
