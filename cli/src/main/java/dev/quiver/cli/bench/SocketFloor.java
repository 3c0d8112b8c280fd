package dev.quiver.cli.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;

/**
 * The raw TCP floor of {@code quiver bench --flight}: the same number of bytes through one loopback socket pair,
 * written by a thread of its own from a direct buffer of 4 MiB and read on the calling thread into another, as a
 * Flight stream has a server and a client. Owns the sockets of a call and closes them before it returns; the
 * buffers are allocated once per instance. One call at a time.
 */
public final class SocketFloor {
    private static final int CHUNK = 4 << 20;
    private final ByteBuffer from = ByteBuffer.allocateDirect(CHUNK);
    private final ByteBuffer into = ByteBuffer.allocateDirect(CHUNK);

    /**
     * @param bytes how many bytes to move
     * @return the seconds from the first write to the last byte read
     * @throws UncheckedIOException if a socket fails
     */
    public double seconds(long bytes) {
        try (ServerSocketChannel listening = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel reader = SocketChannel.open(listening.getLocalAddress());
             SocketChannel writer = listening.accept()) {
            IOException[] failed = new IOException[1];
            long start = System.nanoTime();
            Thread writing = Thread.ofPlatform().daemon().name("quiver-bench-floor").start(() -> {
                try {
                    for (long written = 0; written < bytes; ) {
                        from.clear().limit((int) Math.min(CHUNK, bytes - written));
                        while (from.hasRemaining()) {
                            written += writer.write(from);
                        }
                    }
                } catch (IOException e) {
                    failed[0] = e;
                }
            });
            for (long read = 0; read < bytes; ) {
                into.clear();
                int n = reader.read(into);
                if (n < 0) {
                    throw new IOException("the socket closed after " + read + " of " + bytes + " bytes", failed[0]);
                }
                read += n;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            writing.join();
            if (failed[0] != null) {
                throw failed[0];
            }
            return seconds;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the floor's writer finished", e);
        }
    }
}
