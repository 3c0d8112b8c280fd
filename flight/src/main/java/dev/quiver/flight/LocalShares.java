package dev.quiver.flight;

import dev.quiver.share.ShareServer;
import dev.quiver.share.ShareSession;
import dev.quiver.stream.DeviceArrayStream;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A server's same-host offers: for each one, a {@link ShareServer} on a new private Unix socket that serves one
 * stream to the one receiver that connects first (as this process's user: others are refused), then goes away.
 * A daemon thread per offer accepts, sends every batch (and the schema, which is the first batch's field, or the
 * served schema for a stream without batches), ends the stream, waits until the
 * receiver released every batch or left (at most the release timeout), and closes the session; the socket is
 * removed once a receiver connected or the accept timeout passed. At most {@value #MAX_WAITING} offers wait at once.
 *
 * <p><b>Ownership and threading.</b> Owns its servers and sessions; {@link #offer} from any thread,
 * {@link #close()} once, from any thread, closes every socket still waiting and every session still open.
 */
final class LocalShares implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(LocalShares.class.getName());
    /** Offers waiting for their receiver at most, so that a client asking again and again holds no more sockets and threads. */
    static final int MAX_WAITING = 64;

    private final String host;
    private final Duration acceptTimeout;
    private final Duration releaseTimeout;
    private final Set<AutoCloseable> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger waiting = new AtomicInteger();
    private volatile boolean closed;

    /**
     * @param host           this process's host identity
     * @param acceptTimeout  how long an offer's socket waits for its receiver
     * @param releaseTimeout how long a session keeps batches its receiver has not released after the end
     */
    LocalShares(String host, Duration acceptTimeout, Duration releaseTimeout) {
        this.host = host;
        this.acceptTimeout = acceptTimeout;
        this.releaseTimeout = releaseTimeout;
    }

    /**
     * Opens a socket for one receiver of {@code served}.
     *
     * @param served the stream, opened once the receiver connected
     * @return where to connect
     * @throws IllegalStateException if the producer is closed, or {@value #MAX_WAITING} offers wait for their receivers
     */
    SameHostOffer offer(ServedStream served) {
        if (closed) {
            throw new IllegalStateException("the producer is closed");
        }
        if (waiting.incrementAndGet() > MAX_WAITING) {
            waiting.decrementAndGet();
            throw new IllegalStateException(MAX_WAITING + " offers already wait for their receivers");
        }
        ShareServer server;
        try {
            server = ShareServer.bindPrivate().handshakeTimeout(acceptTimeout);
        } catch (RuntimeException e) {
            waiting.decrementAndGet();
            throw e;
        }
        AtomicBoolean done = new AtomicBoolean();
        AutoCloseable closeServer = () -> {
            if (done.compareAndSet(false, true)) {
                waiting.decrementAndGet();
                server.close();
            }
        };
        open.add(closeServer);
        CompletableFuture.delayedExecutor(acceptTimeout.toMillis(), TimeUnit.MILLISECONDS).execute(() -> closeQuietly(closeServer));
        Thread.ofPlatform().daemon().name("quiver-flight-share-" + served.name())
                .start(() -> serveOne(server, closeServer, served));
        return new SameHostOffer(host, server.path());
    }

    private void serveOne(ShareServer server, AutoCloseable closeServer, ServedStream served) {
        ShareSession session;
        try {
            session = server.accept();
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "no receiver took " + served.name() + " at " + server.path() + ": " + e.getMessage());
            return;
        } finally {
            closeQuietly(closeServer);
            open.remove(closeServer);
        }
        open.add(session);
        try (session) {
            if (closed) {
                return;
            }
            try (DeviceArrayStream stream = served.opener().get()) {
                // the session's schema is the batches' field itself (names included), as a session requires
                if (!stream.hasNext()) {
                    session.sendSchema(served.schema());
                }
                session.sendAll(stream);
            }
            session.end();
            session.awaitReleased(releaseTimeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException | Error e) {
            LOG.log(System.Logger.Level.WARNING, () -> "sharing " + served.name() + " with " + session.peer() + " failed: " + e.getMessage());
        } finally {
            open.remove(session);
        }
    }

    private static void closeQuietly(AutoCloseable resource) {
        try {
            resource.close();
        } catch (Exception e) {
            LOG.log(System.Logger.Level.DEBUG, () -> "closing " + resource + " failed: " + e.getMessage());
        }
    }

    /** Closes every socket still waiting and every session still open; batches received stay readable. */
    @Override
    public void close() {
        closed = true;
        for (AutoCloseable resource : open) {
            closeQuietly(resource);
        }
    }
}
