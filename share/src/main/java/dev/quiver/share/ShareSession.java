package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.share.internal.arrays.DeviceBatch;
import dev.quiver.share.internal.arrays.KnownRegions;
import dev.quiver.share.internal.arrays.PlannedBatch;
import dev.quiver.share.internal.protocol.ByteReader;
import dev.quiver.share.internal.protocol.Connection;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.IdList;
import dev.quiver.share.internal.protocol.Message;
import dev.quiver.share.internal.protocol.MessageType;
import dev.quiver.share.internal.protocol.ProtocolException;
import dev.quiver.share.internal.protocol.SchemaCodec;
import dev.quiver.type.Field;

import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The owner's side of one connection: sends arrays to the receiver as handles and keeps each one's memory
 * alive until the receiver releases it, or disconnects, or dies (docs/SHARING.md, "Releases").
 *
 * <p><b>Ownership.</b> {@link #send} takes a reference on the array it sends (or copies it, where its memory
 * is not shareable), so the caller may close its own array at once. The session holds that reference until
 * the receiver says RELEASED; when the connection ends, however it ends, every reference still held is let go,
 * so a dead receiver leaks nothing. {@link #close()} ends the connection: close after
 * {@link #awaitReleased(Duration)} if the receiver should keep reading memory the owner may reuse.
 *
 * <p><b>Threading.</b> {@code send}, {@code sendAll}, {@code end} and {@code fail} from one thread at a time;
 * every other method from any thread. A reader thread of the session takes the receiver's messages, and it lets go
 * of each released batch (closes its hold: the array's reference and, for a device batch, the inter-process event
 * made for it) on that thread.
 */
public final class ShareSession implements AutoCloseable {
    private static final AtomicInteger OUTSTANDING_EVERYWHERE = new AtomicInteger();

    private final Connection connection;
    private final Peer peer;
    private final Map<Long, AutoCloseable> outstanding = new ConcurrentHashMap<>();
    /** Batches whose hold is not closed yet: a batch leaves {@link #outstanding} before its hold is closed. */
    private final AtomicInteger held = new AtomicInteger();
    private final AtomicLong nextId = new AtomicLong(1);
    /** Batches the receiver named in RELEASED. */
    private final AtomicLong released = new AtomicLong();
    private final Object lock = new Object();
    private final Thread reader;
    private final KnownRegions known;
    /** Where arrays of the receiver's device go as inter-process handles; null where they are copied. */
    private final IpcRoute route;
    private long credits;
    private volatile boolean gone;
    /** Set once the reader let go of every batch after the connection ended. */
    private volatile boolean drained;
    private volatile ShareException failure;
    private Field schema;
    private boolean ended;
    private volatile boolean closed;

    ShareSession(Connection connection, Peer peer, KnownRegions known, IpcRoute route) {
        this.connection = connection;
        this.peer = peer;
        this.known = known;
        this.route = route;
        this.reader = Thread.ofPlatform().daemon().name("quiver-share-" + peer.pid()).start(this::read);
    }

    static int outstandingEverywhere() {
        return OUTSTANDING_EVERYWHERE.get();
    }

    /** {@return the receiving process} */
    public Peer peer() {
        return peer;
    }

    /**
     * Sends the schema without a batch yet; {@link #send} does it before the first batch otherwise.
     *
     * @param field the schema every batch of this session has
     * @throws IllegalStateException if a schema was sent already
     * @throws ShareException        if the receiver is gone
     */
    public void sendSchema(Field field) {
        if (schema != null) {
            throw new IllegalStateException("the schema was sent already: " + schema);
        }
        try {
            connection.send(MessageType.SCHEMA, SchemaCodec.encode(field));
        } catch (RuntimeException e) {
            throw Failures.of(e, "receiver " + peer);
        }
        schema = field;
    }

    /**
     * Sends one array, waiting until the receiver has room for it. The array goes as handles of the memory it
     * lives in if every buffer lies in shareable memory (a {@link SharedHostArena}, a pool on a
     * {@link SharedHostAllocator}), with no copy; otherwise it is copied into a new memory file, and the
     * receiver is told it got a copy. An array of the device the receiver asked for, where the device's backend
     * has an inter-process mechanism whose handles the receiver imports ({@link ShareServer#serve}), goes as the
     * driver's handles of its allocations, with no copy, once its sync event completed (this call waits for it on
     * the host). Any other device array is copied to the host first. A memory file's descriptor
     * travels the first time a batch uses it; later batches in the same memory name it by id, and the receiver
     * maps it once. Memory files closed since the last batch are retired first (REGION_CLOSED).
     *
     * @param array an open array of the session's schema; the caller keeps (and closes) its own reference
     * @return the batch's id
     * @throws IllegalArgumentException if its field is not the session's schema
     * @throws IllegalStateException    if the session ended or is closed
     * @throws ShareException           with {@link ShareException.Reason#PEER_GONE} if the receiver is gone
     *                                  (nothing stays held for it); with {@link ShareException.Reason#LIMIT} if the
     *                                  array alone lies in more regions or bytes than the receiver keeps
     *                                  ({@code max_regions}, {@code max_mapped_bytes} of its HELLO): the receiver is
     *                                  sent ERROR {@code LIMIT} naming the bound and the connection ends, while the
     *                                  server goes on accepting others
     */
    public long send(DeviceArray array) {
        if (ended || closed) {
            throw new IllegalStateException("the session " + (closed ? "is closed" : "ended"));
        }
        if (schema == null) {
            sendSchema(array.field());
        } else if (!schema.equals(array.field())) {
            throw new IllegalArgumentException("the array's field " + array.field() + " is not the session's schema " + schema);
        }
        awaitCredit();
        long id = nextId.getAndIncrement();
        java.util.Optional<DeviceBatch> onDevice = route != null && route.carries(array)
                ? DeviceBatch.of(array, route.backend(), route.kind(), route.events()) : java.util.Optional.empty();
        if (onDevice.isPresent()) {
            try {
                sendHeld(id, onDevice.get().hold(), known.retireClosed(), new long[0], onDevice.get().message(id).encode(), onDevice.get().fds());
            } finally {
                onDevice.get().closeDescriptors();   // the receiver has its own copies
            }
            return id;
        }
        PlannedBatch plan = PlannedBatch.of(array);
        long[] closed = known.retireClosed();
        KnownRegions.Assignment assignment;
        try {
            assignment = known.assign(plan.regions());
        } catch (RuntimeException e) {
            closeQuietly(plan.hold(), id);
            throw e instanceof ProtocolException tooLarge ? refuse(tooLarge) : e;
        }
        sendHeld(id, plan.hold(), closed, assignment.retired(), plan.message(id, assignment).encode(), plan.fds(assignment));
        return id;
    }

    /**
     * Ends the connection with ERROR for a limit of the receiver that this owner cannot meet.
     *
     * @return the failure to throw, also kept as {@link #failure()}
     */
    private ShareException refuse(ProtocolException limit) {
        ShareException refused = new ShareException(Failures.reason(limit.code()), "cannot serve receiver " + peer + ": "
                + limit.getMessage(), limit);
        failure = refused;
        ended = true;
        connection.sendError(limit.code(), limit.getMessage());
        connection.shutdown();   // the reader sees the end and lets go of every batch held
        return refused;
    }

    /** Records {@code hold} as batch {@code id}'s, retires regions, and sends the BATCH; lets go of it on failure. */
    private void sendHeld(long id, AutoCloseable hold, long[] closed, long[] retired, byte[] batch, int[] fds) {
        held.incrementAndGet();
        outstanding.put(id, hold);
        OUTSTANDING_EVERYWHERE.incrementAndGet();
        try {
            retire(closed, retired);
            connection.send(MessageType.BATCH, batch, fds);
        } catch (RuntimeException e) {
            let(id);
            throw Failures.of(e, "receiver " + peer);
        }
        if (gone) {
            let(id);   // the reader may have let go of everything before this batch was recorded
        }
    }

    /**
     * Sends every array of {@code arrays}, closing each after it is sent (the session keeps what it needs).
     *
     * @param arrays the arrays, each owned by this call once taken
     * @return how many were sent
     * @throws ShareException if the receiver is gone; the array being sent is closed
     * @throws RuntimeException what {@code arrays} threw, after {@link #fail} told the receiver
     */
    public long sendAll(Iterator<? extends DeviceArray> arrays) {
        long count = 0;
        while (true) {
            DeviceArray next;
            try {
                if (!arrays.hasNext()) {
                    return count;
                }
                next = arrays.next();
            } catch (RuntimeException sourceFailed) {
                fail("the owner's source of arrays failed after " + count + " batches: " + sourceFailed.getMessage());
                throw sourceFailed;
            }
            try (DeviceArray array = next) {
                send(array);
                count++;
            }
        }
    }

    /**
     * Ends the stream with an error instead of END: tells the receiver that this owner's source of arrays failed
     * (ERROR {@code SOURCE} with {@code reason}), so that its {@link ShareClient#next()} throws a
     * {@link ShareException} of reason {@link ShareException.Reason#SOURCE} naming it, rather than seeing the
     * connection end. Batches sent stay held until released or the receiver leaves; nothing can be sent after.
     * Does nothing once the stream ended or failed; a receiver already gone is not an error here.
     *
     * @param reason what failed, for the receiver
     */
    public void fail(String reason) {
        if (!ended) {
            ended = true;
            connection.sendError(ErrorCode.SOURCE, reason);
        }
    }

    /**
     * Tells the receiver no more batches follow. Batches sent stay held until released.
     *
     * @throws ShareException if the receiver is gone
     */
    public void end() {
        if (!ended) {
            ended = true;
            try {
                if (schema == null) {
                    throw new IllegalStateException("ending a session that sent no schema: send one first");
                }
                retire(known.retireClosed(), new long[0]);
                connection.send(MessageType.END, new byte[0]);
            } catch (IllegalStateException e) {
                throw e;
            } catch (RuntimeException e) {
                throw Failures.of(e, "receiver " + peer);
            }
        }
    }

    /** {@return the batches sent and not yet released} */
    public int outstanding() {
        return held.get();
    }

    /**
     * {@return how many batches the receiver released with RELEASED}: batches let go of because the connection
     * ended (the receiver left or died holding them, or the session was closed) are not among them.
     */
    public long released() {
        return released.get();
    }

    /** {@return whether the receiver disconnected (or died, or broke the protocol)} */
    public boolean isPeerGone() {
        return gone;
    }

    /** {@return why the connection ended, if it ended otherwise than by the receiver closing it} */
    public java.util.Optional<ShareException> failure() {
        return java.util.Optional.ofNullable(failure);
    }

    /**
     * Waits until the receiver released every batch or is gone.
     *
     * @param timeout the most to wait
     * @return whether nothing is outstanding now
     * @throws InterruptedException if interrupted while waiting
     */
    public boolean awaitReleased(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        synchronized (lock) {
            while (held.get() > 0 && !drained) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                lock.wait(Math.max(1, left / 1_000_000));
            }
        }
        return held.get() == 0;
    }

    /** Ends the connection and lets go of every batch still held; later calls do nothing. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        connection.shutdown();
        if (Thread.currentThread() != reader) {
            try {
                reader.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        letAll();
        connection.close();
    }

    private void awaitCredit() {
        synchronized (lock) {
            while (credits == 0 && !gone) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new ShareException(ShareException.Reason.SYSTEM, "interrupted waiting for " + peer + " to ask for a batch", e);
                }
            }
            if (gone) {
                ShareException cause = failure;
                throw cause != null ? new ShareException(cause.reason(), cause.getMessage(), cause)
                        : Failures.gone("receiver " + peer, "before asking for the next batch");
            }
            credits--;
        }
    }

    private void read() {
        try {
            while (true) {
                Message message = connection.receive();
                if (message == null) {
                    return;
                }
                message.withoutDescriptors();
                switch (message.type()) {
                    case REQUEST -> {
                        ByteReader in = new ByteReader(message.body(), "REQUEST");
                        int count = in.count(1 << 20, "count");
                        in.end();
                        synchronized (lock) {
                            credits = Math.min(credits + count, 1L << 30);
                            lock.notifyAll();
                        }
                    }
                    case RELEASED -> {
                        for (long id : IdList.decode(message.body(), "RELEASED")) {
                            if (!let(id)) {
                                throw new ProtocolException(ErrorCode.PROTOCOL, "RELEASED names batch " + Long.toUnsignedString(id)
                                        + ", which is not held");
                            }
                            released.incrementAndGet();
                        }
                    }
                    case ERROR -> {
                        failure = Failures.refused(ErrorMessage.decode(message.body()), "receiver " + peer);
                        return;
                    }
                    default -> throw new ProtocolException(ErrorCode.PROTOCOL, "a receiver does not send " + message.type());
                }
            }
        } catch (ProtocolException e) {
            connection.sendError(e.code(), e.getMessage());
            failure = Failures.of(e, "receiver " + peer);
        } catch (RuntimeException e) {
            if (!closed && failure == null) {
                failure = Failures.of(e, "receiver " + peer);
            }
        } finally {
            gone = true;
            letAll();
            drained = true;
            synchronized (lock) {
                lock.notifyAll();
            }
        }
    }

    /** Sends REGION_CLOSED for every id of {@code first} and {@code second}, if there is one. */
    private void retire(long[] first, long[] second) {
        if (first.length + second.length > 0) {
            long[] ids = java.util.Arrays.copyOf(first, first.length + second.length);
            System.arraycopy(second, 0, ids, first.length, second.length);
            connection.send(MessageType.REGION_CLOSED, IdList.encode(ids, ids.length));
        }
    }

    private void closeQuietly(AutoCloseable hold, long id) {
        try {
            hold.close();
        } catch (Exception e) {
            System.getLogger(ShareSession.class.getName()).log(System.Logger.Level.WARNING,
                    "letting go of batch " + id + " sent to " + peer + " failed", e);
        }
    }

    private boolean let(long id) {
        AutoCloseable hold = outstanding.remove(id);
        if (hold == null) {
            return false;
        }
        closeQuietly(hold, id);
        OUTSTANDING_EVERYWHERE.decrementAndGet();   // counted out once its memory is let go of, not before
        held.decrementAndGet();
        synchronized (lock) {
            lock.notifyAll();
        }
        return true;
    }

    private void letAll() {
        for (Long id : outstanding.keySet()) {
            let(id);
        }
        synchronized (lock) {
            lock.notifyAll();
        }
    }

    @Override
    public String toString() {
        return "share session with " + peer + (gone ? " (gone)" : "");
    }
}
