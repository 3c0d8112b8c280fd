package dev.quiver.flight;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/**
 * The raw TCP floor of {@link FlightThroughput}: the same number of bytes through loopback socket pairs, written
 * from and read into direct buffers of 4 MiB, one writer thread and one reader thread per pair, as the Flight
 * cases have a server and a client; several pairs run in parallel, as several streams do, each moving its share.
 * Opens its sockets per call and closes them on return. Stateless; any thread.
 */
final class TcpFloor {
    private static final int CHUNK = 4 << 20;

    private TcpFloor() {}

    /**
     * @param bytes how many bytes to move, all pairs together
     * @param pairs socket pairs that share them, in parallel
     * @return the seconds from the first write to the last byte read on every pair
     */
    static double seconds(long bytes, int pairs) {
        List<SocketChannel> sockets = new ArrayList<>();
        try (ServerSocketChannel listening = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0))) {
            for (int p = 0; p < pairs; p++) {
                sockets.add(SocketChannel.open(listening.getLocalAddress()));
                sockets.add(listening.accept());
            }
            List<CompletableFuture<Void>> moving = new ArrayList<>();
            long start = System.nanoTime();
            for (int p = 0; p < pairs; p++) {
                long share = bytes / pairs + (p == 0 ? bytes % pairs : 0);
                SocketChannel reader = sockets.get(2 * p);
                SocketChannel writer = sockets.get(2 * p + 1);
                moving.add(onThread(() -> write(writer, share)));
                moving.add(onThread(() -> read(reader, share)));
            }
            for (CompletableFuture<Void> m : moving) {
                m.get();
            }
            return (System.nanoTime() - start) / 1e9;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("the TCP floor failed", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        } finally {
            for (SocketChannel socket : sockets) {
                try {
                    socket.close();
                } catch (IOException e) {
                    // closing a loopback socket after the run; nothing to do
                }
            }
        }
    }

    private static CompletableFuture<Void> onThread(Runnable work) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("tcp-floor").start(() -> {
            try {
                work.run();
                done.complete(null);
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        });
        return done;
    }

    private static void read(SocketChannel reader, long bytes) {
        ByteBuffer into = ByteBuffer.allocateDirect(CHUNK);
        try {
            for (long read = 0; read < bytes; ) {
                into.clear();
                int n = reader.read(into);
                if (n < 0) {
                    throw new IOException("the socket closed after " + read + " of " + bytes + " bytes");
                }
                read += n;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void write(SocketChannel writer, long bytes) {
        ByteBuffer from = ByteBuffer.allocateDirect(CHUNK);
        try {
            for (long written = 0; written < bytes; ) {
                from.clear().limit((int) Math.min(CHUNK, bytes - written));
                while (from.hasRemaining()) {
                    written += writer.write(from);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
