package dev.quiver.flight.wire;

import dev.quiver.arrowjava.VectorImport;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

/**
 * A plain Arrow Java Flight producer serving the every-type batches the way Arrow Java's examples serve a
 * stream: one root, the first batch's dictionaries sent on start, each batch loaded into the root and put.
 */
final class CatalogueProducer extends NoOpFlightProducer {
    private final BufferAllocator allocator;

    CatalogueProducer(BufferAllocator allocator) {
        this.allocator = allocator;
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        try (CDataDictionaryProvider dictionaries = new CDataDictionaryProvider();
             VectorSchemaRoot first = VectorImport.toVectorSchemaRoot(WireBatches.batch(0).toDeviceArray(), allocator, dictionaries);
             VectorSchemaRoot out = VectorSchemaRoot.create(first.getSchema(), allocator)) {
            listener.start(out, dictionaries);
            VectorLoader loader = new VectorLoader(out);
            for (int b = 0; b < WireBatches.ROWS.size(); b++) {
                try (CDataDictionaryProvider own = new CDataDictionaryProvider();
                     VectorSchemaRoot batch = b == 0 ? null : VectorImport.toVectorSchemaRoot(WireBatches.batch(b).toDeviceArray(), allocator, own);
                     ArrowRecordBatch records = new VectorUnloader(batch == null ? first : batch).getRecordBatch()) {
                    loader.load(records);
                }
                listener.putNext();
            }
            listener.completed();
        }
    }
}
