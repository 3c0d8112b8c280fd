package dev.quiver.flight.ipc;

import dev.quiver.arrowjava.StreamExport;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.ipc.ArrowFileReader;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.ipc.InvalidArrowFileException;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * An Arrow IPC file ({@code .arrow}, random access) or stream (the streaming format) as a
 * {@link DeviceArrayStream} of CPU struct arrays, one per record batch. Each batch shares the buffers Arrow
 * Java read it into (no copy), and stays valid after the stream moves on or is closed. A file is input from
 * outside the process: each batch is validated against the buffers Arrow Java read it into before it is
 * handed out ({@link dev.quiver.arrowjava.VectorExport#toValidatedDeviceArray}), so offsets that run past
 * them, out-of-range dictionary indexes or views, and invalid UTF-8 fail the stream with the field path.
 *
 * <p><b>Ownership.</b> The returned stream owns the reader and the file or input stream: closing it closes
 * them. Batches belong to the caller. The {@code allocator} is charged for every batch until it is closed, so
 * it must outlive the stream and its batches.
 *
 * <p><b>Threading.</b> The stream is read from one thread at a time, as any {@code DeviceArrayStream}.
 */
public final class ArrowIpcReading {
    private ArrowIpcReading() {}

    /**
     * {@return its record batches, owned by the caller}
     * @param file      an Arrow IPC file
     * @param allocator charged for the batches
     * @throws IOException if the file cannot be opened or is not an Arrow IPC file (the message names it)
     */
    public static DeviceArrayStream file(Path file, BufferAllocator allocator) throws IOException {
        FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
        return of(new ArrowFileReader(channel, allocator), allocator, file.toString());
    }

    /**
     * {@return the record batches of a file in either Arrow IPC format, owned by the caller: the file format where
     * the file starts with its magic {@code ARROW1}, else the stream format}
     * @param file      an Arrow IPC file, or a file holding an Arrow IPC stream
     * @param allocator charged for the batches
     * @throws IOException if the file cannot be opened or read as either format (the message names it)
     */
    public static DeviceArrayStream fileOrStream(Path file, BufferAllocator allocator) throws IOException {
        byte[] magic = new byte[6];
        int read;
        try (java.io.InputStream in = java.nio.file.Files.newInputStream(file)) {
            read = in.readNBytes(magic, 0, magic.length);
        }
        if (read == magic.length && new String(magic, java.nio.charset.StandardCharsets.US_ASCII).equals("ARROW1")) {
            return file(file, allocator);
        }
        java.io.InputStream in = new java.io.BufferedInputStream(java.nio.file.Files.newInputStream(file));
        try {
            return of(new ArrowStreamReader(in, allocator), allocator, file.toString());
        } catch (IOException | RuntimeException e) {
            in.close();
            throw e;
        }
    }

    /**
     * {@return its record batches, owned by the caller}
     * @param in        Arrow IPC stream bytes; owned by the returned stream
     * @param allocator charged for the batches
     * @throws IOException if the schema cannot be read
     */
    public static DeviceArrayStream stream(InputStream in, BufferAllocator allocator) throws IOException {
        return of(new ArrowStreamReader(in, allocator), allocator, "the Arrow IPC stream");
    }

    private static DeviceArrayStream of(ArrowReader reader, BufferAllocator allocator, String what) throws IOException {
        try {
            return StreamExport.toValidatedDeviceArrayStream(reader, allocator);
        } catch (UncheckedIOException e) {
            reader.close();
            throw new IOException(what + " is not Arrow IPC data Arrow Java can read: " + e.getCause().getMessage(), e.getCause());
        } catch (InvalidArrowFileException e) {
            reader.close();
            throw new IOException(what + " is not an Arrow IPC file: " + e.getMessage(), e);
        } catch (RuntimeException e) {
            reader.close();
            throw e;
        }
    }
}
