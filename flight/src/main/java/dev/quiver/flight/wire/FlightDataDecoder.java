package dev.quiver.flight.wire;

import dev.quiver.ArrayBuilder;
import dev.quiver.Interchange;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.flight.InvalidFlightDataException;
import dev.quiver.type.Field;
import org.apache.arrow.flatbuf.DictionaryBatch;
import org.apache.arrow.flatbuf.Message;
import org.apache.arrow.flatbuf.MessageHeader;
import org.apache.arrow.flatbuf.RecordBatch;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Schema;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The receiving half of one Flight stream: received {@code FlightData} messages in, checked arrays out. The
 * first message must carry the schema; then each {@code DictionaryBatch} replaces the dictionary of its id and
 * each {@code RecordBatch} becomes a struct array whose encoded columns share the dictionaries received.
 *
 * <p><b>Trust boundary.</b> Every message is hostile until checked: its header against the schema and the body
 * that arrived ({@link BatchHeader}), then the arrays built over the body through {@link ArrayBuilder#of(Field, Device)}
 * (buffer sizes against node lengths, structure), then their data ({@link Interchange#validateFull}: offsets,
 * views, UTF-8, union type ids, dictionary indexes, run ends) with every buffer's true size. A message that
 * fails is refused with an {@link InvalidFlightDataException} naming it, and nothing of it is kept. A body
 * compressed per the IPC format ({@code BodyCompression}, LZ4_FRAME or ZSTD, whichever the sender chose) is
 * decompressed into host memory of the device first, within the bounds {@link BodyDecompression} documents.
 *
 * <p><b>Ownership.</b> Consumes each message it is given. Batches returned belong to the caller and keep
 * their body (and the dictionaries they use) alive after the decoder is closed. {@link #close()} lets go of
 * the decoder's dictionaries. <b>Threading.</b> One thread at a time (a stream's receiving thread).
 */
final class FlightDataDecoder implements AutoCloseable {
    private final Device device;
    private final String what;
    private final long maxUncompressedBytes;
    private final Map<Long, DeviceArray> dictionaries = new HashMap<>();
    private Field schema;
    private List<Long> dictionaryIds;
    private Map<Long, Field> dictionaryValues;
    private long batches;

    /**
     * @param device the host-accessible device bodies land in (the CPU, or pinned host memory)
     * @param what   names the stream in errors
     */
    FlightDataDecoder(Device device, String what) {
        this(device, what, BodyDecompression.DEFAULT_MAX_UNCOMPRESSED_BYTES);
    }

    /**
     * @param device               the host-accessible device bodies land in (the CPU, or pinned host memory)
     * @param what                 names the stream in errors
     * @param maxUncompressedBytes the most bytes one compressed message's buffers may declare uncompressed
     *                             (see {@link BodyDecompression}); a message that declares more is refused
     *                             before anything is allocated for it
     */
    FlightDataDecoder(Device device, String what, long maxUncompressedBytes) {
        if (maxUncompressedBytes < 0) {
            throw new IllegalArgumentException("maxUncompressedBytes is negative: " + maxUncompressedBytes);
        }
        this.device = device;
        this.what = what;
        this.maxUncompressedBytes = maxUncompressedBytes;
    }

    /** {@return the stream's batch field (a struct named {@code ""}), or null before the schema arrived} */
    Field schema() {
        return schema;
    }

    /**
     * @param message a received message; consumed (its body is freed or owned by the result)
     * @return the batch the message carried, owned by the caller; null for a schema or dictionary message
     * @throws InvalidFlightDataException if the message breaks the format or does not fit the stream
     */
    DeviceArray accept(ReceivedMessage message) {
        try (message) {
            String name = schema == null ? what + ": the schema message" : what + ": message after batch " + batches;
            Message header = HeaderReading.message(message.header(), name);
            return switch (header.headerType()) {
                case MessageHeader.Schema -> {
                    acceptSchema(header, name);
                    yield null;
                }
                case MessageHeader.DictionaryBatch -> {
                    acceptDictionary(header, message, name);
                    yield null;
                }
                default -> acceptBatch(header, message, what + ": batch " + batches);
            };
        }
    }

    private void acceptSchema(Message header, String name) {
        if (schema != null) {
            throw new InvalidFlightDataException(name + ": a second Schema message in one stream", null);
        }
        Schema arrowSchema = HeaderReading.schema(header, name);
        List<Long> ids = new ArrayList<>();
        for (org.apache.arrow.vector.types.pojo.Field field : arrowSchema.getFields()) {
            collectIds(field, ids, false, name);
        }
        Field field;
        try {
            field = SchemaMapping.toQuiver(arrowSchema);
        } catch (IllegalArgumentException e) {
            throw new InvalidFlightDataException(name + ": " + e.getMessage(), e);
        }
        Map<Long, Field> values = new HashMap<>();
        List<Field> encoded = new ArrayList<>();
        field.children().forEach(child -> collectEncoded(child, encoded));
        for (int i = 0; i < ids.size(); i++) {
            Field previous = values.putIfAbsent(ids.get(i), encoded.get(i).dictionary().values());
            if (previous != null && !previous.type().equals(encoded.get(i).dictionary().values().type())) {
                throw new InvalidFlightDataException(name + ": dictionary " + ids.get(i) + " is given two value types", null);
            }
        }
        schema = field;
        dictionaryIds = ids;
        dictionaryValues = values;
    }

    private static void collectIds(org.apache.arrow.vector.types.pojo.Field field, List<Long> ids, boolean inDictionary, String name) {
        DictionaryEncoding encoding = field.getDictionary();
        if (encoding != null) {
            if (inDictionary) {
                throw new InvalidFlightDataException(name + ": field " + field.getName() + " is dictionary-encoded inside a dictionary's values,"
                        + " which this codec does not read", null);
            }
            ids.add(encoding.getId());
        }
        for (org.apache.arrow.vector.types.pojo.Field child : field.getChildren()) {
            collectIds(child, ids, inDictionary || encoding != null, name);
        }
    }

    private static void collectEncoded(Field field, List<Field> encoded) {
        if (field.dictionary() != null) {
            encoded.add(field);
            return;
        }
        field.children().forEach(child -> collectEncoded(child, encoded));
    }

    private void acceptDictionary(Message header, ReceivedMessage message, String name) {
        requireSchema(name);
        RecordBatch data;
        long id;
        boolean delta;
        try {
            DictionaryBatch batch = (DictionaryBatch) header.header(new DictionaryBatch());
            data = batch == null ? null : batch.data();
            id = batch == null ? 0 : batch.id();
            delta = batch != null && batch.isDelta();
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw HeaderReading.malformed(name, e);
        }
        if (data == null) {
            throw new InvalidFlightDataException(name + ": the DictionaryBatch has no data", null);
        }
        Field values = dictionaryValues.get(id);
        if (values == null) {
            throw new InvalidFlightDataException(name + ": DictionaryBatch.id " + id + " is no dictionary of the schema", null);
        }
        if (delta) {
            throw new InvalidFlightDataException(name + ": dictionary " + id + " is a delta, which this codec does not read yet", null);
        }
        DeviceArray dictionary = build(data, List.of(values), message, name + " (dictionary " + id + ")", true);
        DeviceArray previous = dictionaries.put(id, dictionary);
        if (previous != null) {
            previous.close();
        }
    }

    private DeviceArray acceptBatch(Message header, ReceivedMessage message, String name) {
        requireSchema(name);
        RecordBatch batch;
        try {
            batch = (RecordBatch) header.header(new RecordBatch());
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw HeaderReading.malformed(name, e);
        }
        if (batch == null) {
            throw new InvalidFlightDataException(name + ": IPC Message.header is absent", null);
        }
        DeviceArray built = build(batch, schema.children(), message, name, false);
        batches++;
        return built;
    }

    private void requireSchema(String name) {
        if (schema == null) {
            throw new InvalidFlightDataException(name + ": a batch came before the stream's Schema message: a Flight stream must start with its schema", null);
        }
    }

    /** Checks the header, builds the columns over the body, wraps them in a struct (unless a dictionary), validates. */
    private DeviceArray build(RecordBatch batch, List<Field> columns, ReceivedMessage message, String name, boolean dictionary) {
        BatchHeader checked;
        BufferCodec codec;
        try {
            checked = BatchHeader.check(batch, columns, message.bodyLength(), name);
            codec = BodyDecompression.codec(batch, name);
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw HeaderReading.malformed(name, e);
        }
        DeviceBuffer body = message.takeBody();
        if (codec != null) {
            BodyDecompression.Inflated inflated = BodyDecompression.inflate(codec, checked, body, device, maxUncompressedBytes, name);
            checked = inflated.header();
            body = inflated.body();
        }
        try (BatchAssembly assembly = new BatchAssembly(device, body, checked, dictionaryIds, dictionaries)) {
            DeviceArray array = dictionary ? assembly.column(columns.getFirst()) : struct(assembly, columns, checked.length());
            try {
                Interchange.validateFull(array, assembly::capacity);
                return array;
            } catch (RuntimeException | Error e) {
                array.close();
                throw e;
            }
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new InvalidFlightDataException(name + " refused: " + e.getMessage(), e);
        }
    }

    private DeviceArray struct(BatchAssembly assembly, List<Field> columns, long length) {
        List<DeviceArray> built = new ArrayList<>();
        try {
            var builder = ArrayBuilder.of(schema, device).length(length).nullCount(0).absentBuffer();
            for (Field column : columns) {
                DeviceArray array = assembly.column(column);
                built.add(array);
                builder.child(array);
            }
            return builder.build();
        } catch (RuntimeException | Error e) {
            built.forEach(DeviceArray::close);
            throw e;
        }
    }

    /** Lets go of the dictionaries received; batches handed out keep theirs. */
    @Override
    public void close() {
        dictionaries.values().forEach(DeviceArray::close);
        dictionaries.clear();
    }
}
