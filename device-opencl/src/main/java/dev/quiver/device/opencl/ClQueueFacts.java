package dev.quiver.device.opencl;

import java.lang.foreign.MemorySegment;

/**
 * What {@code clGetCommandQueueInfo} says about a {@code cl_command_queue}, read when a queue made outside
 * Quiver is handed over, so that adoption can refuse a queue of another context or device, or an
 * out-of-order one. Immutable.
 *
 * @param queue      the queue
 * @param context    {@code CL_QUEUE_CONTEXT}
 * @param device     {@code CL_QUEUE_DEVICE}
 * @param properties {@code CL_QUEUE_PROPERTIES}
 */
record ClQueueFacts(MemorySegment queue, MemorySegment context, MemorySegment device, long properties) {

    /**
     * @param cl    the library
     * @param queue a non-NULL queue handle
     * @return the facts
     * @throws IllegalArgumentException if OpenCL does not accept the handle as a queue
     */
    static ClQueueFacts read(OpenCl cl, MemorySegment queue) {
        ClInfo.Query q = cl.info(ClFunction.clGetCommandQueueInfo);
        try {
            return new ClQueueFacts(queue,
                    ClInfo.handle(q, queue, ClConstants.CL_QUEUE_CONTEXT, "clGetCommandQueueInfo(CL_QUEUE_CONTEXT)"),
                    ClInfo.handle(q, queue, ClConstants.CL_QUEUE_DEVICE, "clGetCommandQueueInfo(CL_QUEUE_DEVICE)"),
                    ClInfo.ulong(q, queue, ClConstants.CL_QUEUE_PROPERTIES, "clGetCommandQueueInfo(CL_QUEUE_PROPERTIES)"));
        } catch (OpenClException e) {
            throw new IllegalArgumentException(Hex.of(queue) + " is not a command queue OpenCL accepts: " + e.getMessage(), e);
        }
    }

    /**
     * @param expected the context the queue must belong to
     * @throws IllegalArgumentException if it belongs to another
     */
    void requireContext(MemorySegment expected) {
        if (context.address() != expected.address()) {
            throw new IllegalArgumentException("queue " + Hex.of(queue) + " belongs to context " + Hex.of(context)
                    + ", not to " + Hex.of(expected));
        }
    }

    /**
     * @param expected the device the queue must feed
     * @throws IllegalArgumentException if it feeds another
     */
    void requireDevice(MemorySegment expected) {
        if (device.address() != expected.address()) {
            throw new IllegalArgumentException("queue " + Hex.of(queue) + " feeds device " + Hex.of(device)
                    + ", not " + Hex.of(expected));
        }
    }

    /** @throws IllegalArgumentException if the queue executes out of order */
    void requireInOrder() {
        if ((properties & ClConstants.CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) != 0) {
            throw new IllegalArgumentException("queue " + Hex.of(queue)
                    + " is out-of-order; Quiver orders copies and markers on in-order queues only");
        }
    }
}
