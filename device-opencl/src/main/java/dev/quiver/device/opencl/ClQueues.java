package dev.quiver.device.opencl;

import java.lang.foreign.MemorySegment;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The command queues one {@link OpenClDevice} accepts as streams: its default queue (borrowed; {@code NULL}
 * means it), the queues it made ({@link #create}, owned by the caller until {@link #destroy}) and the queues
 * it adopted ({@link #adopt}: made outside Quiver, retained while adopted, until {@link #forget}).
 * Thread-safe: the sets are concurrent and OpenCL calls are thread-safe.
 */
final class ClQueues {
    private final OpenCl cl;
    private final ClDeviceInfo info;
    private final MemorySegment context;
    private final MemorySegment defaultQueue;
    private final Set<Long> created = ConcurrentHashMap.newKeySet();
    private final AdoptedHandles adopted;

    /**
     * @param cl           the library
     * @param info         the device
     * @param context      the device's context
     * @param defaultQueue the device's default queue, borrowed
     */
    ClQueues(OpenCl cl, ClDeviceInfo info, MemorySegment context, MemorySegment defaultQueue) {
        this.cl = cl;
        this.info = info;
        this.context = context;
        this.defaultQueue = defaultQueue;
        this.adopted = new AdoptedHandles("cl_command_queue", info.displayName());
    }

    /** @return the default queue, borrowed */
    MemorySegment defaultQueue() {
        return defaultQueue;
    }

    /**
     * @param stream a stream handle given to the device
     * @return the queue it names
     * @throws IllegalArgumentException if it is neither {@code NULL}, the default queue, a queue made by
     *                                  {@link #create} nor one adopted
     */
    MemorySegment resolve(MemorySegment stream) {
        if (stream.equals(MemorySegment.NULL) || stream.address() == defaultQueue.address()) {
            return defaultQueue;
        }
        if (!created.contains(stream.address()) && !adopted.contains(stream)) {
            throw new IllegalArgumentException(Hex.of(stream) + " is not a command queue of " + info.displayName()
                    + " (use its default queue, NULL, one from createStream, or adopt it with adoptStream)");
        }
        return MemorySegment.ofAddress(stream.address());
    }

    /** @return a new in-order queue on the device's context, owned by the caller */
    MemorySegment create() {
        MemorySegment queue = cl.createQueue(context, info.device(), info.hasQueueProperties());
        created.add(queue.address());
        return queue;
    }

    /**
     * {@code clFinish}, then {@code clReleaseCommandQueue}, on a queue from {@link #create}.
     *
     * @throws IllegalArgumentException if {@code stream} is not a live queue from {@link #create}
     */
    void destroy(MemorySegment stream) {
        if (!created.remove(stream.address())) {
            throw new IllegalArgumentException(Hex.of(stream) + " is not a command queue made by createStream of "
                    + info.displayName() + " (the default queue is borrowed and never destroyed; adopted queues are forgotten)");
        }
        finishAndRelease(MemorySegment.ofAddress(stream.address()), 1);
    }

    /**
     * Validates a queue made outside Quiver and retains it ({@code clRetainCommandQueue}).
     *
     * @param queue a {@code cl_command_queue}
     * @return the stream handle (the queue's address)
     * @throws IllegalArgumentException if the queue is NULL, of another context or device, or out-of-order;
     *                                  nothing is retained then. A queue this device made (its default queue,
     *                                  one from {@code createStream}) may be adopted too: the adoption holds
     *                                  its own reference.
     */
    MemorySegment adopt(MemorySegment queue) {
        return adopted.adopt(queue, handle -> {
            ClQueueFacts facts = ClQueueFacts.read(cl, handle);
            facts.requireContext(context);
            facts.requireDevice(info.device());
            facts.requireInOrder();
            cl.retainQueue(handle);
        });
    }

    /**
     * Undoes {@link #adopt}: releases the reference it took and, with {@code destroy}, waits for the queue's
     * work ({@code clFinish}) and releases the caller's reference too.
     *
     * @throws IllegalArgumentException if {@code stream} is not an adopted queue
     */
    void forget(MemorySegment stream, boolean destroy) {
        MemorySegment queue = adopted.forget(stream, "queues from createStream are destroyed with destroyStream");
        if (destroy) {
            finishAndRelease(queue, 2);
        } else {
            cl.releaseQueue(queue);
        }
    }

    private void finishAndRelease(MemorySegment queue, int references) {
        try {
            cl.finish(queue);
        } finally {
            for (int i = 0; i < references; i++) {
                cl.releaseQueue(queue);
            }
        }
    }
}
