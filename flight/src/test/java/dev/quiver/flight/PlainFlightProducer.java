package dev.quiver.flight;

import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorLoader;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.VectorUnloader;
import org.apache.arrow.vector.ipc.message.ArrowRecordBatch;

import java.util.List;

/**
 * The baseline of {@link FlightThroughput}: a plain Arrow Java Flight producer writing in-memory roots the
 * way Arrow's own examples do (one root, each batch loaded into it and put without waiting: gRPC buffers what
 * the reader has not taken). Thread-safe: each call loads into a root of its own.
 */
final class PlainFlightProducer extends NoOpFlightProducer {
    private final List<VectorSchemaRoot> batches;
    private final BufferAllocator allocator;

    PlainFlightProducer(List<VectorSchemaRoot> batches, BufferAllocator allocator) {
        this.batches = batches;
        this.allocator = allocator;
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        try (VectorSchemaRoot out = VectorSchemaRoot.create(batches.getFirst().getSchema(), allocator)) {
            listener.start(out);
            VectorLoader loader = new VectorLoader(out);
            for (VectorSchemaRoot batch : batches) {
                try (ArrowRecordBatch records = new VectorUnloader(batch).getRecordBatch()) {
                    loader.load(records);
                }
                if (listener.isCancelled()) {
                    return;
                }
                listener.putNext();
            }
            listener.completed();
        }
    }
}
