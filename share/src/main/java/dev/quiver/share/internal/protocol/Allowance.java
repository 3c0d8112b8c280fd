package dev.quiver.share.internal.protocol;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The receiver's account of the batches it asked for (docs/SHARING.md, "REQUEST" and "BATCH"): {@link #admit}
 * refuses, before anything of a BATCH is mapped or opened, a batch with {@code batch_id} 0, one whose id is not
 * larger than the id of the batch before it (ids increase through the connection, so none repeats and RELEASED
 * never names one batch for two), and one past the allowance.
 *
 * <p>The allowance a batch is counted against is what the REQUESTs sent before the socket read that brought the
 * batch granted: an owner cannot have seen a REQUEST sent after its batch had arrived. A receiver that tops its
 * allowance up as it reads thus still refuses an owner that sends ahead of it, and never refuses one that waits.
 *
 * <p><b>Threading.</b> Not thread-safe: the receiving thread uses it.
 */
public final class Allowance {
    /** REQUESTs not yet known to precede a read: {reads made before it was sent, allowance in total with it}. */
    private final Deque<long[]> pending = new ArrayDeque<>();
    /** What the REQUESTs sent so far grant in total. */
    private long granted;
    /** What the REQUESTs sent before the latest read of a batch grant in total. */
    private long counted;
    private long received;
    private long lastId;

    /** {@return how many more batches the REQUESTs sent so far let the owner send} */
    public long outstanding() {
        return granted - received;
    }

    /**
     * Records a REQUEST about to be sent: the owner may send {@code count} more batches.
     *
     * @param count the REQUEST's count, at least 1
     * @param reads the reads of the socket made before it is sent ({@link Connection#reads()})
     */
    public void grant(int count, long reads) {
        granted += count;
        pending.addLast(new long[] {reads, granted});
    }

    /**
     * Admits one BATCH, reading its {@code batch_id} only.
     *
     * @param body  the BATCH's body
     * @param reads the reads of the socket made when it was returned ({@link Connection#reads()}): one of them
     *              brought it
     * @return its id
     * @throws ProtocolException with {@link ErrorCode#PROTOCOL} if the body is too short for an id, the id is 0
     *                           or not larger than the last, or the batch is past the allowance (naming it)
     */
    public long admit(byte[] body, long reads) {
        long id = new ByteReader(body, "BATCH").u64("batch_id");
        String name = "BATCH " + Long.toUnsignedString(id);
        if (id == 0) {
            throw new ProtocolException(ErrorCode.PROTOCOL, "BATCH: batch_id is 0; a batch id is never 0");
        }
        if (Long.compareUnsigned(id, lastId) <= 0) {
            throw new ProtocolException(ErrorCode.PROTOCOL, name + ": batch_id is not larger than " + Long.toUnsignedString(lastId)
                    + ", the id of the batch before; batch ids increase through the connection, so none repeats");
        }
        while (!pending.isEmpty() && pending.peekFirst()[0] < reads) {
            counted = pending.removeFirst()[1];
        }
        if (received >= counted) {
            throw new ProtocolException(ErrorCode.PROTOCOL, name + " is past the allowance: the REQUESTs this receiver had sent when it "
                    + "arrived allowed " + counted + " batches, and " + received + " came before it");
        }
        received++;
        lastId = id;
        return id;
    }
}
