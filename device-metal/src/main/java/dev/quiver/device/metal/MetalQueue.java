package dev.quiver.device.metal;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A stream: one {@code MTLCommandQueue}. Work is encoded into a command buffer per submission; command
 * buffers of one queue complete in commit order, so waiting for the last one waits for the queue. The last
 * command buffer is kept retained until the queue is synchronised, with the host work (copies out of
 * staging buffers, releasing them) that runs then. Synchronized: any thread may use it.
 */
final class MetalQueue {
    /** {@code MTLCommandBufferStatusCompleted}. */
    static final long COMPLETED = 4;

    private final ObjcRuntime objc;
    private final MemorySegment queue;
    private MemorySegment last = MemorySegment.NULL;
    private final List<Runnable> afterCompletion = new ArrayList<>();

    MetalQueue(ObjcRuntime objc, MemorySegment queue) {
        this.objc = objc;
        this.queue = queue;
    }

    /** @return the {@code id<MTLCommandQueue>}, the stream handle */
    MemorySegment handle() {
        return queue;
    }

    /**
     * Encodes work into a new command buffer and commits it.
     *
     * @param encode writes commands into the command buffer
     * @param after  host work to run once the queue is synchronised, or null
     */
    synchronized void submit(Consumer<MemorySegment> encode, Runnable after) {
        MemorySegment buffer = objc.inPool(() -> {
            MemorySegment commandBuffer = objc.object(queue, MetalMessage.commandBuffer);
            if (commandBuffer.equals(MemorySegment.NULL)) {
                throw new MetalException("[MTLCommandQueue commandBuffer] returned nil");
            }
            encode.accept(commandBuffer);
            objc.object(commandBuffer, MetalMessage.retain);
            objc.send(commandBuffer, MetalMessage.commit);
            return commandBuffer;
        });
        if (!last.equals(MemorySegment.NULL)) {
            objc.send(last, MetalMessage.release);
        }
        last = buffer;
        if (after != null) {
            afterCompletion.add(after);
        }
    }

    /** Encodes a blit copy between two buffers and commits it. */
    void copy(MemorySegment from, long fromOffset, MemorySegment to, long toOffset, long size, Runnable after) {
        submit(commandBuffer -> {
            MemorySegment blit = objc.object(commandBuffer, MetalMessage.blitCommandEncoder);
            objc.copyBuffer(blit, from, fromOffset, to, toOffset, size);
            objc.send(blit, MetalMessage.endEncoding);
        }, after);
    }

    /** Waits for everything committed so far, checks it succeeded, then runs the pending host work. */
    synchronized void synchronize() {
        if (last.equals(MemorySegment.NULL)) {
            return;
        }
        MemorySegment buffer = last;
        last = MemorySegment.NULL;
        List<Runnable> work = List.copyOf(afterCompletion);
        afterCompletion.clear();
        try {
            objc.send(buffer, MetalMessage.waitUntilCompleted);
            long status = objc.integer(buffer, MetalMessage.status);
            if (status != COMPLETED) {
                String why = objc.inPool(() -> {
                    MemorySegment error = objc.object(buffer, MetalMessage.error);
                    return error.equals(MemorySegment.NULL) ? "no NSError" : objc.string(objc.object(error, MetalMessage.localizedDescription));
                });
                throw new MetalException("Metal command buffer ended with status " + status + ": " + why);
            }
        } finally {
            objc.send(buffer, MetalMessage.release);
            work.forEach(Runnable::run);
        }
    }
}
