package dev.quiver.flight.wire;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * One resource shared by several holders (the buffers gRPC writes from one batch, the arrays built over one
 * received body): it is closed once, by whichever holder lets go last, on that holder's thread. The creator
 * holds the first reference. Any thread.
 */
final class SharedRelease {
    private final AtomicInteger holders = new AtomicInteger(1);
    private final AutoCloseable resource;

    /** @param resource closed once when the last holder lets go; what it throws is reported, not thrown */
    SharedRelease(AutoCloseable resource) {
        this.resource = resource;
    }

    /**
     * Adds a holder.
     *
     * @throws IllegalStateException if every holder already let go
     */
    void retain() {
        holders.updateAndGet(n -> {
            if (n <= 0) {
                throw new IllegalStateException("the shared resource was already released");
            }
            return n + 1;
        });
    }

    /** Lets go of one holder's reference; the last closes the resource. */
    void release() {
        int left = holders.decrementAndGet();
        if (left == 0) {
            try {
                resource.close();
            } catch (Exception e) {
                System.getLogger(SharedRelease.class.getName()).log(System.Logger.Level.WARNING,
                        "releasing memory of a FlightData message failed", e);
            }
        } else if (left < 0) {
            throw new IllegalStateException("a holder let go twice");
        }
    }
}
