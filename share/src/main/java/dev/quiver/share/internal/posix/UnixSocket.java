package dev.quiver.share.internal.posix;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

/**
 * A Unix domain stream socket ({@code AF_UNIX}, {@code SOCK_STREAM}) that carries file descriptors
 * ({@code SCM_RIGHTS}) beside its bytes, and tells who the peer is ({@code SO_PEERCRED}).
 *
 * <p><b>Ownership.</b> The socket owns its descriptor and the native scratch memory of its calls; {@link #close()}
 * frees both, once. Descriptors received are owned by the caller of {@link #receive}, who closes them.
 *
 * <p><b>Threading.</b> {@link #send} may be called from any thread (calls are serialised); {@link #receive}
 * from one thread at a time. {@link #shutdown()} and {@link #close()} may be called from any thread and wake a
 * blocked {@code receive} (it then reads end of stream) or {@code accept} (it then fails); calls after the close
 * fail with {@code EBADF}.
 */
public final class UnixSocket implements AutoCloseable {
    /** The most descriptors one message carries ({@code SCM_MAX_FD} of Linux). */
    public static final int MAX_FDS = 253;
    static final long CONTROL_SIZE = Libc.CMSG_HEADER + align8(MAX_FDS * 4L);

    private final int fd;
    private final Arena arena = Arena.ofShared();
    private final Scratch sending;
    private final Scratch receiving;
    private final Object sendLock = new Object();
    /** Held by {@link #receive} and {@link #accept}, so that {@link #close()} frees their scratch memory only after they return. */
    private final Object receiveLock = new Object();
    /** Orders {@link #shutdown()} before the descriptor is closed, so that it never reaches a reused number. */
    private final Object descriptorLock = new Object();
    private final AtomicBoolean shut = new AtomicBoolean();
    private final AtomicBoolean closed = new AtomicBoolean();

    /** The native memory of one direction's calls: errno capture, msghdr, iovec and control buffer. */
    private record Scratch(MemorySegment errno, MemorySegment header, MemorySegment iov, MemorySegment control) {
        static Scratch in(Arena arena) {
            return new Scratch(Libc.capture(arena), arena.allocate(Libc.MSGHDR_SIZE, 8),
                    arena.allocate(Libc.IOVEC_SIZE, 8), arena.allocate(CONTROL_SIZE, 8));
        }
    }

    private UnixSocket(int fd) {
        this.fd = fd;
        this.sending = Scratch.in(arena);
        this.receiving = Scratch.in(arena);
    }

    /**
     * Creates a listening socket at {@code path} (which must not exist), with the process's umask.
     *
     * @param path    the socket file
     * @param backlog pending connections the kernel queues
     * @return the socket
     * @throws SystemCallException if the path is too long, taken or not writable
     */
    public static UnixSocket listen(Path path, int backlog) {
        int fd = open();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            if (Libc.bind(errno, fd, address(arena, path)) < 0) {
                throw closing(fd, "bind", Libc.errno(errno), path.toString());
            }
            if (Libc.listen(errno, fd, backlog) < 0) {
                throw closing(fd, "listen", Libc.errno(errno), path.toString());
            }
        } catch (IllegalArgumentException e) {
            Memfd.close(fd);
            throw e;
        }
        return new UnixSocket(fd);
    }

    /**
     * Connects to a listening socket.
     *
     * @param path the socket file
     * @return the connected socket
     * @throws SystemCallException if nobody listens there ({@code ECONNREFUSED}, {@code ENOENT}) or access is denied
     */
    public static UnixSocket connect(Path path) {
        int fd = open();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            int result;
            do {
                result = Libc.connect(errno, fd, address(arena, path));
            } while (result < 0 && Libc.errno(errno) == Libc.EINTR);
            if (result < 0) {
                throw closing(fd, "connect", Libc.errno(errno), path.toString());
            }
        } catch (IllegalArgumentException e) {
            Memfd.close(fd);
            throw e;
        }
        return new UnixSocket(fd);
    }

    /**
     * Waits for a connection.
     *
     * @return the connected socket, owned by the caller
     * @throws SystemCallException if this socket was shut down or closed meanwhile ({@code EINVAL}, {@code EBADF})
     */
    public UnixSocket accept() {
        synchronized (receiveLock) {
            checkOpen("accept");
            int accepted;
            do {
                accepted = Libc.accept(receiving.errno(), fd);
            } while (accepted < 0 && Libc.errno(receiving.errno()) == Libc.EINTR);
            if (accepted < 0) {
                throw new SystemCallException("accept", Libc.errno(receiving.errno()), "");
            }
            return new UnixSocket(accepted);
        }
    }

    private void checkOpen(String call) {
        if (closed.get()) {
            throw new SystemCallException(call, 9, "the socket is closed");
        }
    }

    /**
     * Bounds how long {@link #receive} waits for bytes ({@code SO_RCVTIMEO}); past it, it fails with
     * {@code EAGAIN}.
     *
     * @param millis the bound in milliseconds; 0 for none
     */
    public void receiveTimeout(long millis) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            MemorySegment timeval = arena.allocate(Libc.TIMEVAL_SIZE, 8);
            timeval.set(JAVA_LONG, 0, millis / 1000);
            timeval.set(JAVA_LONG, 8, millis % 1000 * 1000);
            if (Libc.setsockopt(errno, fd, Libc.SOL_SOCKET, Libc.SO_RCVTIMEO, timeval) < 0) {
                throw new SystemCallException("setsockopt(SO_RCVTIMEO)", Libc.errno(errno), millis + " ms");
            }
        }
    }

    /** {@return whether {@code e} is a receive that ran past {@link #receiveTimeout}} @param e a failure of {@link #receive} */
    public static boolean isTimeout(SystemCallException e) {
        return e.errno() == Libc.EAGAIN;
    }

    /** {@return who is at the other end, as the kernel recorded at connection time} */
    public PeerCredentials peer() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            MemorySegment credentials = arena.allocate(Libc.UCRED_SIZE, 4);
            MemorySegment length = arena.allocateFrom(JAVA_INT, (int) Libc.UCRED_SIZE);
            if (Libc.getsockopt(errno, fd, Libc.SOL_SOCKET, Libc.SO_PEERCRED, credentials, length) < 0) {
                throw new SystemCallException("getsockopt(SO_PEERCRED)", Libc.errno(errno), "");
            }
            return new PeerCredentials(credentials.get(JAVA_INT, 0), credentials.get(JAVA_INT, 4), credentials.get(JAVA_INT, 8));
        }
    }

    /**
     * Sends all of {@code bytes}, with {@code fds} attached to the first byte.
     *
     * @param bytes the message, native memory
     * @param fds   descriptors to pass (duplicated into the peer; the caller keeps its own), at most {@link #MAX_FDS}
     * @throws SystemCallException if the peer is gone ({@code EPIPE}, {@code ECONNRESET}) or the call fails
     */
    public void send(MemorySegment bytes, int[] fds) {
        if (fds.length > MAX_FDS) {
            throw new IllegalArgumentException(fds.length + " descriptors in one message; at most " + MAX_FDS);
        }
        synchronized (sendLock) {
            checkOpen("sendmsg");
            Scratch s = sending;
            long done = 0;
            boolean attach = fds.length > 0;
            while (done < bytes.byteSize() || attach) {
                s.header().fill((byte) 0);
                s.iov().set(ADDRESS, 0, bytes.asSlice(done));
                s.iov().set(JAVA_LONG, 8, bytes.byteSize() - done);
                s.header().set(ADDRESS, Libc.MSG_IOV, s.iov());
                s.header().set(JAVA_LONG, Libc.MSG_IOVLEN, 1);
                if (attach) {
                    long length = Libc.CMSG_HEADER + fds.length * 4L;
                    s.control().set(JAVA_LONG, 0, length);
                    s.control().set(JAVA_INT, Libc.CMSG_LEVEL, Libc.SOL_SOCKET);
                    s.control().set(JAVA_INT, Libc.CMSG_TYPE, Libc.SCM_RIGHTS);
                    for (int i = 0; i < fds.length; i++) {
                        s.control().set(JAVA_INT, Libc.CMSG_HEADER + i * 4L, fds[i]);
                    }
                    s.header().set(ADDRESS, Libc.MSG_CONTROL, s.control());
                    s.header().set(JAVA_LONG, Libc.MSG_CONTROLLEN, Libc.CMSG_HEADER + align8(fds.length * 4L));
                }
                long sent = Libc.sendmsg(s.errno(), fd, s.header(), Libc.MSG_NOSIGNAL);
                if (sent < 0) {
                    if (Libc.errno(s.errno()) == Libc.EINTR) {
                        continue;
                    }
                    throw new SystemCallException("sendmsg", Libc.errno(s.errno()), "");
                }
                attach = false;
                done += sent;
            }
        }
    }

    /**
     * Reads until {@code into} is full or the peer closed, collecting the descriptors that arrive on the way.
     *
     * @param into where the bytes go, native memory
     * @param fds  receives every descriptor that arrived, which the caller then owns (and closes)
     * @return the bytes read: {@code into.byteSize()}, or fewer at end of stream
     * @throws SystemCallException if the call fails, or the kernel dropped descriptors ({@code MSG_CTRUNC};
     *                             those that did arrive are in {@code fds})
     */
    public long receive(MemorySegment into, List<Integer> fds) {
        synchronized (receiveLock) {
            checkOpen("recvmsg");
            return receiveOpen(into, fds);
        }
    }

    /**
     * Reads what one {@code recvmsg} returns: at least one byte, or nothing at end of stream, collecting the
     * descriptors that arrive with those bytes. The kernel hands a message's descriptors over with the read that
     * takes its first byte, and ends a read after the bytes that carried descriptors, so the descriptors of one
     * call belong to one message of the sender.
     *
     * @param into  where the bytes go, native memory, at least one byte
     * @param fds   receives every descriptor that arrived, which the caller then owns (and closes)
     * @param block whether to wait for bytes; if not, the call returns {@code -1} when none are there yet
     * @return the bytes read; 0 at end of stream; -1 if {@code block} is false and nothing could be read now
     * @throws SystemCallException if the call fails, or the kernel dropped descriptors ({@code MSG_CTRUNC};
     *                             those that did arrive are in {@code fds})
     */
    public long receiveSome(MemorySegment into, List<Integer> fds, boolean block) {
        synchronized (receiveLock) {
            checkOpen("recvmsg");
            return receiveOnce(into, fds, block);
        }
    }

    /**
     * One {@code recvmsg} into {@code into} (retried on {@code EINTR}), its descriptors added to {@code fds}.
     * Called with the receive lock held.
     *
     * @return the bytes read; 0 at end of stream (or a reset after {@link #shutdown()}); -1 if {@code block} is
     *         false and nothing could be read now
     */
    private long receiveOnce(MemorySegment into, List<Integer> fds, boolean block) {
        Scratch s = receiving;
        int flags = block ? Libc.MSG_CMSG_CLOEXEC : Libc.MSG_CMSG_CLOEXEC | Libc.MSG_DONTWAIT;
        while (true) {
            s.header().fill((byte) 0);
            s.iov().set(ADDRESS, 0, into);
            s.iov().set(JAVA_LONG, 8, into.byteSize());
            s.header().set(ADDRESS, Libc.MSG_IOV, s.iov());
            s.header().set(JAVA_LONG, Libc.MSG_IOVLEN, 1);
            s.header().set(ADDRESS, Libc.MSG_CONTROL, s.control());
            s.header().set(JAVA_LONG, Libc.MSG_CONTROLLEN, CONTROL_SIZE);
            long read = Libc.recvmsg(s.errno(), fd, s.header(), flags);
            if (read < 0) {
                int errno = Libc.errno(s.errno());
                if (errno == Libc.EINTR) {
                    continue;
                }
                if (errno == Libc.EAGAIN && !block) {
                    return -1;
                }
                if (errno == 104 && shut.get()) {
                    return 0;
                }
                throw new SystemCallException("recvmsg", errno, "");
            }
            collect(s, fds);
            if ((s.header().get(JAVA_INT, Libc.MSG_FLAGS) & Libc.MSG_CTRUNC) != 0) {
                throw new SystemCallException("recvmsg", 0, "descriptors were dropped (MSG_CTRUNC): more than "
                        + MAX_FDS + " in one message");
            }
            return read;
        }
    }

    private long receiveOpen(MemorySegment into, List<Integer> fds) {
        long done = 0;
        while (done < into.byteSize()) {
            long read = receiveOnce(into.asSlice(done), fds, true);
            if (read == 0) {
                return done;
            }
            done += read;
        }
        return done;
    }

    private static void collect(Scratch s, List<Integer> fds) {
        long controlLength = s.header().get(JAVA_LONG, Libc.MSG_CONTROLLEN);
        long at = 0;
        while (at + Libc.CMSG_HEADER <= controlLength) {
            long length = s.control().get(JAVA_LONG, at);
            if (length < Libc.CMSG_HEADER || at + length > controlLength) {
                break;
            }
            if (s.control().get(JAVA_INT, at + Libc.CMSG_LEVEL) == Libc.SOL_SOCKET
                    && s.control().get(JAVA_INT, at + Libc.CMSG_TYPE) == Libc.SCM_RIGHTS) {
                for (long i = Libc.CMSG_HEADER; i + 4 <= length; i += 4) {
                    fds.add(s.control().get(JAVA_INT, at + i));
                }
            }
            at += align8(length);
        }
    }

    /** Shuts both directions down: a blocked {@link #receive} or {@link #accept} returns; the peer reads end of stream. */
    public void shutdown() {
        synchronized (descriptorLock) {
            if (!closed.get() && shut.compareAndSet(false, true)) {
                try (Arena arena = Arena.ofConfined()) {
                    Libc.shutdown(Libc.capture(arena), fd, Libc.SHUT_RDWR);
                }
            }
        }
    }

    /**
     * Shuts down, waits for a blocked {@link #receive} or {@link #accept} to return (the shutdown wakes it), then
     * closes the descriptor and frees the scratch memory; later calls do nothing.
     */
    @Override
    public void close() {
        shutdown();
        synchronized (receiveLock) {
            synchronized (sendLock) {
                synchronized (descriptorLock) {
                    if (closed.compareAndSet(false, true)) {
                        Memfd.close(fd);
                        arena.close();
                    }
                }
            }
        }
    }

    private static int open() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment errno = Libc.capture(arena);
            int fd = Libc.socket(errno, Libc.AF_UNIX, Libc.SOCK_STREAM | Libc.SOCK_CLOEXEC, 0);
            if (fd < 0) {
                throw new SystemCallException("socket", Libc.errno(errno), "AF_UNIX");
            }
            return fd;
        }
    }

    private static MemorySegment address(Arena arena, Path path) {
        byte[] name = path.toString().getBytes(StandardCharsets.UTF_8);
        if (name.length >= Libc.SUN_PATH_MAX) {
            throw new IllegalArgumentException("socket path " + path + " is " + name.length
                    + " bytes; a Unix domain socket path has at most " + (Libc.SUN_PATH_MAX - 1));
        }
        MemorySegment address = arena.allocate(Libc.SOCKADDR_UN_SIZE, 2);
        address.set(JAVA_SHORT, 0, (short) Libc.AF_UNIX);
        MemorySegment.copy(name, 0, address, JAVA_BYTE, 2, name.length);
        return address;
    }

    private static SystemCallException closing(int fd, String call, int errno, String context) {
        Memfd.close(fd);
        return new SystemCallException(call, errno, context);
    }

    private static long align8(long n) {
        return (n + 7) & ~7L;
    }
}
