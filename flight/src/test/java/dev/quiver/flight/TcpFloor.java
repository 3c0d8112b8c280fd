package dev.quiver.flight;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.concurrent.CompletableFuture;

/**
 * The raw TCP floor of {@link FlightThroughput}: the same number of bytes through one loopback socket pair,
 * written from and read into direct buffers of 4 MiB, a writer thread and the calling thread, as the Flight
 * cases have a server and a client. Closes its sockets on return.
 */
final class TcpFloor {
    private static final int CHUNK = 4 << 20;

    private TcpFloor() {}

    /**
     * @param bytes how many bytes to move
     * @return the seconds from the first write to the last byte read
     */
    static double seconds(long bytes) {
        try (ServerSocketChannel listening = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel reader = SocketChannel.open(listening.getLocalAddress());
             SocketChannel writer = listening.accept()) {
            long start = System.nanoTime();
            CompletableFuture<Void> writing = CompletableFuture.runAsync(() -> write(writer, bytes));
            ByteBuffer into = ByteBuffer.allocateDirect(CHUNK);
            for (long read = 0; read < bytes; ) {
                into.clear();
                int n = reader.read(into);
                if (n < 0) {
                    throw new IOException("the socket closed after " + read + " of " + bytes + " bytes");
                }
                read += n;
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            writing.join();
            return seconds;
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
