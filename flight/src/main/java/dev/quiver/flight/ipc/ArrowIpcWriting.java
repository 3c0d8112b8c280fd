package dev.quiver.flight.ipc;

import dev.quiver.arrowjava.DeviceCopy;
import dev.quiver.arrowjava.StreamImport;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.ipc.ArrowFileWriter;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.ipc.ArrowStreamWriter;
import org.apache.arrow.vector.ipc.ArrowWriter;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;

/**
 * A {@link DeviceArrayStream} of struct arrays, from any device, written as an Arrow IPC file or stream: each
 * batch is copied to the host if it is elsewhere (a CPU batch is written from its own memory) and written as
 * a record batch, dictionaries first. The streaming format carries a dictionary that changes between batches
 * (as a replacement); the file format cannot, and Arrow Java refuses such a stream.
 *
 * <p><b>Ownership.</b> Consumes the stream: it is closed when the call returns, also on failure; every batch
 * is released once written. The file or output stream is the caller's ({@code out} is not closed; the file
 * is closed when the call returns). The {@code allocator} is charged only during the call.
 *
 * <p><b>Threading.</b> Runs on the calling thread.
 */
public final class ArrowIpcWriting {
    private ArrowIpcWriting() {}

    /**
     * Writes the whole stream as an Arrow IPC file, or nothing: the batches go to a temporary file beside
     * {@code file}, which is renamed to {@code file} only once the stream ended and the file's footer is
     * written. When the stream breaks off (a server gone mid-stream, a batch refused) or writing fails, the
     * temporary file is removed and {@code file} is left as it was, so a file at {@code file} is always a
     * complete stream, never a valid-looking prefix of one.
     *
     * @param stream    the batches; consumed
     * @param file      created or replaced once every batch is written
     * @param allocator charged while the batches are written
     * @return the number of batches written
     * @throws IOException if writing fails, or the stream broke off (then its
     *                     {@link dev.quiver.stream.StreamException} is the cause)
     */
    public static long file(DeviceArrayStream stream, Path file, BufferAllocator allocator) throws IOException {
        Path absolute = file.toAbsolutePath();
        Path partial;
        try {
            partial = Files.createTempFile(absolute.getParent(), "." + absolute.getFileName(), ".partial");
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw e;
        }
        boolean complete = false;
        try {
            long written;
            try (FileChannel channel = FileChannel.open(partial, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                written = write(stream, allocator, (root, dictionaries) -> new ArrowFileWriter(root, dictionaries, channel));
            }
            Files.move(partial, absolute, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            complete = true;
            return written;
        } finally {
            if (!complete) {
                Files.deleteIfExists(partial);
            }
        }
    }

    /**
     * {@return the number of batches written}
     * @param stream    the batches; consumed
     * @param out       receives the stream format; flushed, not closed
     * @param allocator charged while the batches are written
     * @throws IOException if writing fails
     */
    public static long stream(DeviceArrayStream stream, OutputStream out, BufferAllocator allocator) throws IOException {
        long written = write(stream, allocator, (root, dictionaries) -> new ArrowStreamWriter(root, dictionaries, Channels.newChannel(out)));
        out.flush();
        return written;
    }

    /** Opens Arrow Java's writer of one format over the batches' root and dictionaries. */
    private interface WriterFactory {
        ArrowWriter open(VectorSchemaRoot root, DictionaryProvider dictionaries) throws IOException;
    }

    private static long write(DeviceArrayStream stream, BufferAllocator allocator, WriterFactory factory) throws IOException {
        try (ArrowReader reader = StreamImport.toArrowReader(stream, allocator, DeviceCopy.COPY_TO_HOST);
             ArrowWriter writer = factory.open(reader.getVectorSchemaRoot(), reader)) {
            writer.start();
            long written = 0;
            while (reader.loadNextBatch()) {
                writer.writeBatch();
                written++;
            }
            writer.end();
            return written;
        }
    }
}
