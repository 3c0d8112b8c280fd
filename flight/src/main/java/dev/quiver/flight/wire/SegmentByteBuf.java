package dev.quiver.flight.wire;

import io.netty.buffer.UnpooledByteBufAllocator;
import io.netty.buffer.UnpooledDirectByteBuf;

import java.lang.foreign.MemorySegment;

/**
 * A netty buffer over off-heap memory Quiver owns (a batch's buffer), readable from its first byte to its
 * last and never writable past it, so that the transport writes the memory to the socket where it lies.
 * It frees nothing: when netty lets go of it (its reference count reaches zero, on whichever thread netty
 * releases it, usually the channel's event loop) it runs {@code release} once, which lets go of the
 * reference that kept the memory alive.
 */
final class SegmentByteBuf extends UnpooledDirectByteBuf {
    private final Runnable release;

    /**
     * @param memory  native memory of at most {@code Integer.MAX_VALUE} bytes, alive until {@code release} runs
     * @param release runs once when netty releases the buffer; must not throw
     */
    SegmentByteBuf(MemorySegment memory, Runnable release) {
        super(UnpooledByteBufAllocator.DEFAULT, memory.asByteBuffer(), Math.toIntExact(memory.byteSize()));
        this.release = release;
    }

    @Override
    protected void deallocate() {
        try {
            super.deallocate();
        } finally {
            release.run();
        }
    }
}
