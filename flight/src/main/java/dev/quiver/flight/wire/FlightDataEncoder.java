package dev.quiver.flight.wire;

import dev.quiver.DeviceArray;
import dev.quiver.KeepAlive;
import dev.quiver.flight.FlightCompression;
import dev.quiver.type.Field;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Host batches to {@code FlightData} messages of the Arrow IPC streaming format: the schema first, then for
 * each batch the dictionaries of its encoded columns ({@code DictionaryBatch}, ids in the schema's pre-order)
 * and its {@code RecordBatch}. Headers are built from the batch's structs (see {@link BodyLayout},
 * {@link IpcHeaders}); bodies are the batch's own memory, or compressed per the IPC format when the sender asks
 * ({@link FlightCompression}, {@link BodyCompressor}).
 *
 * <p><b>Ownership.</b> The batch stays the caller's: each message retains what it sends (the batch, or a view
 * of a dictionary) until it is streamed and written, or closed, so the caller may close the batch at once.
 * <b>Threading.</b> Stateless; any thread; a batch must not be closed concurrently with the call.
 */
final class FlightDataEncoder {
    private FlightDataEncoder() {}

    /**
     * @param schema     the struct field of the stream's batches
     * @param descriptor a serialized {@code FlightDescriptor} for field 1 (a {@code DoPut}'s first message), or null
     * @return the schema message, without a body
     * @throws IllegalArgumentException if the field is not a struct or cannot be written (the message says why)
     */
    static OutgoingMessage schema(Field schema, byte[] descriptor) {
        byte[] header = IpcHeaders.schema(SchemaMapping.toArrowJava(schema));
        return new OutgoingMessage(descriptor, header, null, List.of(), List.of(), -1, new SharedRelease(() -> { }));
    }

    /**
     * The messages of one batch: its dictionaries when asked for, then the record batch.
     *
     * @param batch            an open CPU struct array, offset 0 at every level; retained by the messages
     * @param withDictionaries whether to send the batch's dictionaries before it (the first batch of a stream
     *                         must; later batches replace the dictionaries sent before)
     * @param appMetadata      field 3 of the record batch's message, or null
     * @return the messages in sending order, owned by the caller (each closed or streamed once)
     * @throws IllegalArgumentException if the batch cannot be written (not on the CPU, sliced, a type the
     *                                  format cannot carry); nothing is retained then
     */
    static List<OutgoingMessage> batch(DeviceArray batch, boolean withDictionaries, byte[] appMetadata) {
        return batch(batch, withDictionaries, appMetadata, FlightCompression.NONE);
    }

    /**
     * The messages of one batch, their bodies compressed as asked: as {@link #batch(DeviceArray, boolean, byte[])}
     * with {@code NONE}; with a codec, each body (the dictionaries' too) is compressed at once into memory of the
     * batch's device that the message owns (see {@link BodyCompressor}), and the messages do not retain the batch.
     *
     * @param batch            an open CPU struct array, offset 0 at every level
     * @param withDictionaries whether to send the batch's dictionaries before it
     * @param appMetadata      field 3 of the record batch's message, or null
     * @param compression      how to compress the bodies
     * @return the messages in sending order, owned by the caller (each closed or streamed once)
     * @throws IllegalArgumentException if the batch cannot be written; nothing is retained or allocated then
     */
    static List<OutgoingMessage> batch(DeviceArray batch, boolean withDictionaries, byte[] appMetadata, FlightCompression compression) {
        List<DeviceArray> dictionaries = new ArrayList<>();
        List<OutgoingMessage> messages = new ArrayList<>();
        try {
            BodyLayout layout = BodyLayout.ofBatch(batch, dictionaries);
            if (withDictionaries) {
                for (int id = 0; id < dictionaries.size(); id++) {
                    messages.add(dictionary(id, dictionaries.get(id), compression));
                }
            }
            messages.add(message(layout, batch, compression, IpcHeaders::recordBatch, appMetadata));
            return messages;
        } catch (RuntimeException | Error e) {
            messages.forEach(OutgoingMessage::close);
            throw e;
        } finally {
            dictionaries.forEach(DeviceArray::close);
        }
    }

    private static OutgoingMessage dictionary(long id, DeviceArray values, FlightCompression compression) {
        BodyLayout layout = BodyLayout.ofDictionary(values);
        return message(layout, values, compression, compressed -> IpcHeaders.dictionaryBatch(id, compressed, false), null);
    }

    /** The message of a body: the array's own memory, retained; or its buffers compressed into memory the message owns. */
    private static OutgoingMessage message(BodyLayout layout, DeviceArray owner, FlightCompression compression,
                                           Function<BodyLayout, byte[]> header, byte[] appMetadata) {
        if (compression == FlightCompression.NONE) {
            byte[] bytes = header.apply(layout);
            KeepAlive memory = owner.retain();
            return new OutgoingMessage(null, bytes, appMetadata, layout.buffers(), layout.offsets(), layout.bodyLength(),
                    new SharedRelease(memory));
        }
        BodyCompressor.Compressed body = BodyCompressor.compress(layout, BufferCodec.of(compression), owner.device());
        byte[] bytes;
        try {
            bytes = header.apply(body.layout());
        } catch (RuntimeException | Error e) {
            body.memory().close();
            throw e;
        }
        BodyLayout sent = body.layout();
        return new OutgoingMessage(null, bytes, appMetadata, sent.buffers(), sent.offsets(), sent.bodyLength(), new SharedRelease(body.memory()));
    }
}
