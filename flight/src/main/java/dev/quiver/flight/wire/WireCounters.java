package dev.quiver.flight.wire;

import java.util.concurrent.atomic.LongAdder;

/**
 * What the codec did with the bytes of message bodies, process-wide, so that the number of copies per byte
 * on each path is a measured fact: body bytes handed to gRPC's transport as buffers over the batch's own
 * memory (no copy), body bytes the codec copied on the way out (where the transport took no buffers), and
 * body bytes the codec copied on the way in (from gRPC's receive buffers into Quiver memory), and of
 * those, the bytes that went through a heap chunk because the stream exposed no buffers. Counters only
 * grow; any thread.
 */
final class WireCounters {
    private static final LongAdder SENT_IN_PLACE = new LongAdder();
    private static final LongAdder SENT_COPIED = new LongAdder();
    private static final LongAdder RECEIVED_COPIED = new LongAdder();
    private static final LongAdder RECEIVED_THROUGH_HEAP = new LongAdder();

    private WireCounters() {}

    static void sentInPlace(long bytes) {
        SENT_IN_PLACE.add(bytes);
    }

    static void sentCopied(long bytes) {
        SENT_COPIED.add(bytes);
    }

    static void receivedCopied(long bytes) {
        RECEIVED_COPIED.add(bytes);
    }

    static void receivedThroughHeap(long bytes) {
        RECEIVED_THROUGH_HEAP.add(bytes);
    }

    /** {@return body bytes handed to the transport without a copy, so far} */
    static long sentInPlace() {
        return SENT_IN_PLACE.sum();
    }

    /** {@return body bytes copied by the codec while sending, so far} */
    static long sentCopied() {
        return SENT_COPIED.sum();
    }

    /** {@return body bytes that came through a heap chunk while receiving (a stream without buffers), so far} */
    static long receivedThroughHeap() {
        return RECEIVED_THROUGH_HEAP.sum();
    }

    /** {@return body bytes copied by the codec while receiving, so far} */
    static long receivedCopied() {
        return RECEIVED_COPIED.sum();
    }
}
