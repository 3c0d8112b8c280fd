package dev.quiver.flight.wire;

import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.Devices;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor;
import io.grpc.Server;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The heap a batch costs on the codec's path over gRPC: int64 batches of 1 MiB and of 32 MiB go from a server
 * that sends with the codec to a client that receives with it, and the heap allocated per batch by the thread
 * gRPC sends on (encoding and framing) and by the thread that parses and decodes is measured with the JVM's
 * per-thread allocation counter. No body byte passes through the heap on either side. Sending costs the same
 * few KB whatever the batch's size (measured: about 1.4 KB for both). Receiving costs a few KB plus gRPC's
 * objects for each HTTP/2 frame of 16 KiB the body came in (the {@code getByteBuffer} view of each frame and
 * the release of each consumed one: measured about 24 KB for 1 MiB, 345 KB for 32 MiB, about 1% of the body),
 * so its bound here is a few KB plus 1/64 of the body; taking netty's frames without gRPC's views is what
 * would make it flat.
 */
class WireHeapTest {
    private static final int BATCHES = 6;
    /** The heap a batch may cost sending, whatever its size. */
    private static final long SEND_BOUND = 8 * 1024;
    /** The heap a batch may cost receiving, besides 1/64 of its body for gRPC's frames. */
    private static final long RECEIVE_BOUND = 32 * 1024;
    private final Device cpu = Devices.system().cpu();

    @Test
    void noBodyBytePassesThroughTheHeapAndSendingCostsTheSameForEverySize() throws Exception {
        long[] small = heapPerBatch(1 << 17);
        long[] large = heapPerBatch(1 << 22);
        System.out.printf("heap per batch, sending / receiving: 1 MiB %d / %d bytes, 32 MiB %d / %d bytes%n", small[0], small[1], large[0], large[1]);
        assertTrue(small[0] < SEND_BOUND && large[0] < SEND_BOUND, "heap per batch sending: " + small[0] + " and " + large[0] + " bytes");
        assertTrue(small[1] < RECEIVE_BOUND + (8L << 17) / 64, "heap per 1 MiB batch receiving: " + small[1] + " bytes");
        assertTrue(large[1] < RECEIVE_BOUND + (8L << 22) / 64, "heap per 32 MiB batch receiving: " + large[1] + " bytes");
    }

    /** {@return the heap per batch after the first two, sending and receiving, for batches of {@code rows} int64} */
    private long[] heapPerBatch(int rows) throws Exception {
        Field column = Field.of("v", new ArrowType.Int(64, true), false);
        Field schema = Field.struct("batch", false, List.of(column));
        List<DeviceArray> batches = new ArrayList<>();
        AtomicLong sendHeap = new AtomicLong();
        AtomicLong receiveHeap = new AtomicLong();
        try {
            for (int b = 0; b < BATCHES; b++) {
                batches.add(longs(schema, column, rows, b));
            }
            Server server = WireGrpc.serve(cpu, () -> {
                List<OutgoingMessage> messages = new ArrayList<>();
                messages.add(FlightDataEncoder.schema(schema, null));
                batches.forEach(batch -> messages.addAll(FlightDataEncoder.batch(batch, false, null)));
                return messages;
            }, sendHeap);
            ManagedChannel channel = WireGrpc.channel(server.getPort());
            FlightDataMarshaller plain = new FlightDataMarshaller(cpu, FlightDataMarshaller.DEFAULT_MAX_HEADER_BYTES);
            int[] parsed = {0};
            MethodDescriptor.Marshaller<FlightMessage> measured = new MethodDescriptor.Marshaller<>() {
                @Override
                public InputStream stream(FlightMessage value) {
                    return plain.stream(value);
                }

                @Override
                public FlightMessage parse(InputStream stream) {
                    long before = HeapCount.allocated();
                    FlightMessage message = plain.parse(stream);
                    if (parsed[0]++ >= 2) {
                        receiveHeap.addAndGet(HeapCount.allocated() - before);
                    }
                    return message;
                }
            };
            try (FlightDataDecoder decoder = new FlightDataDecoder(cpu, "int64 batches")) {
                Iterator<FlightMessage> messages = WireGrpc.get(channel, measured);
                int index = 0;
                while (messages.hasNext()) {
                    ReceivedMessage message = (ReceivedMessage) messages.next();
                    long before = HeapCount.allocated();
                    DeviceArray batch = decoder.accept(message);
                    if (index >= 2) {
                        receiveHeap.addAndGet(HeapCount.allocated() - before);
                    }
                    if (batch != null) {
                        try (batch; DeviceArray values = batch.child(0)) {
                            MemorySegment memory = values.buffer(1).asSegment();
                            int b = index - 1;
                            assertEquals(rows, batch.length());
                            assertEquals(b * 1_000_000_000L, memory.getAtIndex(JAVA_LONG, 0));
                            assertEquals(b * 1_000_000_000L + rows - 1, memory.getAtIndex(JAVA_LONG, rows - 1));
                        }
                    }
                    index++;
                }
                assertEquals(BATCHES + 1, index, "messages");
            } finally {
                channel.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
                server.shutdownNow().awaitTermination(10, TimeUnit.SECONDS);
            }
        } finally {
            batches.forEach(DeviceArray::close);
        }
        return new long[] {sendHeap.get() / (BATCHES - 1), receiveHeap.get() / (BATCHES - 1)};
    }

    private DeviceArray longs(Field schema, Field column, int rows, int batch) {
        DeviceBuffer values = cpu.allocate(8L * rows);
        MemorySegment memory = values.asSegment();
        for (int i = 0; i < rows; i++) {
            memory.setAtIndex(JAVA_LONG, i, batch * 1_000_000_000L + i);
        }
        DeviceArray array = ArrayBuilder.of(column, cpu).length(rows).nullCount(0).absentBuffer().buffer(values).build();
        return ArrayBuilder.of(schema, cpu).length(rows).nullCount(0).absentBuffer().child(array).build();
    }
}
