package dev.quiver.flight;

import dev.quiver.host.HostVector;
import dev.quiver.type.Field;
import org.apache.arrow.flight.OutboundStreamListener;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

import java.util.List;

/**
 * Writes host batches to a Flight stream (a server's {@code DoGet} reply or a client's {@code DoPut}): the
 * schema and the first batch's dictionaries on start, then each batch, moved into the stream's root without a
 * copy. A stream with no batch still sends its schema, from {@code schema}.
 *
 * <p><b>Ownership.</b> Closes every batch it takes (each batch's buffers after they were handed to the
 * stream, the first batch's dictionaries at the end); does not close {@code batches} or the listener.
 * <b>Threading.</b> Runs on the calling thread, which is the only one writing to the listener.
 */
final class BatchSender {
    private BatchSender() {}

    /**
     * @param batches   the batches, in order
     * @param schema    the stream's struct field, used when there is no batch
     * @param listener  the stream to write to
     * @param gate      waited on before each batch
     * @param allocator charged for the stream's root
     * @return true if every batch was written and the stream completed, false if the call was cancelled
     * @throws RuntimeException what {@code batches} threw, or a dictionary that changed (see {@link DictionaryCheck});
     *                          the stream is then neither completed nor failed: the caller reports the error
     */
    static boolean send(HostBatches batches, Field schema, OutboundStreamListener listener, ReadyGate gate, BufferAllocator allocator) {
        HostBatch first = batches.next();
        boolean empty = first == null;
        if (empty) {
            first = HostBatch.of(HostVector.of(schema, List.of()).toDeviceArray(), allocator);
        }
        try (VectorSchemaRoot out = VectorSchemaRoot.create(first.root().getSchema(), allocator)) {
            listener.start(out, first.dictionaries());
            VectorLoader loader = new VectorLoader(out);
            long index = 0;
            for (HostBatch batch = empty ? null : first; batch != null; batch = batches.next(), index++) {
                try {
                    if (batch != first) {
                        DictionaryCheck.sameAsSent(first.dictionaries(), batch.dictionaries(), index);
                    }
                    try (ArrowRecordBatch records = new VectorUnloader(batch.root()).getRecordBatch()) {
                        loader.load(records);
                    }
                } finally {
                    if (batch == first) {
                        batch.root().close();
                    } else {
                        batch.close();
                    }
                }
                if (!gate.awaitReady()) {
                    return false;
                }
                listener.putNext();
            }
        } finally {
            first.close();
        }
        listener.completed();
        return true;
    }
}
