package dev.quiver.flight.wire;

import io.netty.buffer.ByteBuf;

import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.util.List;

/**
 * gRPC-java's one door for zero-copy sending, opened by reflection as Arrow Java's Flight opens it: a
 * message whose length gRPC does not know ({@code io.grpc.KnownLength} not implemented) is drained into
 * {@code MessageFramer.BufferChainOutputStream}, a list of transport buffers that gRPC frames and hands to
 * netty one by one. A netty buffer wrapped as gRPC's {@code NettyWritableBuffer} and appended to that list
 * is written to the socket from its own memory. gRPC 1.79 has no public hook for this (a known-length
 * message is copied into buffers gRPC allocates), so where the classes or fields are not there (another
 * gRPC version, a transport other than netty, the module path) {@link #available()} is false and the codec
 * copies through the stream instead.
 *
 * <p>Appending never touches the stream's current write buffer, so bytes written through the stream before
 * stay before, and the buffers appended cannot be written into by gRPC: each is full
 * ({@code writableBytes() == 0}) and no larger than its memory. Stateless after class initialisation; any thread.
 */
final class GrpcBufferChain {
    private static final Class<?> CHAIN;
    private static final MethodHandle BUFFER_LIST;
    private static final Constructor<?> NETTY_WRITABLE_BUFFER;

    static {
        Class<?> chain = null;
        MethodHandle list = null;
        Constructor<?> writable = null;
        try {
            chain = Class.forName("io.grpc.internal.MessageFramer$BufferChainOutputStream");
            Field field = chain.getDeclaredField("bufferList");
            field.setAccessible(true);
            list = MethodHandles.lookup().unreflectGetter(field).asType(MethodType.methodType(List.class, Object.class));
            writable = Class.forName("io.grpc.netty.NettyWritableBuffer").getDeclaredConstructor(ByteBuf.class);
            writable.setAccessible(true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.getLogger(GrpcBufferChain.class.getName()).log(System.Logger.Level.DEBUG,
                    "gRPC's buffer chain is not reachable; FlightData bodies are copied into gRPC's buffers", e);
            chain = null;
        }
        CHAIN = chain;
        BUFFER_LIST = list;
        NETTY_WRITABLE_BUFFER = writable;
    }

    private GrpcBufferChain() {}

    /** {@return whether this gRPC's buffer chain can take netty buffers} */
    static boolean available() {
        return CHAIN != null;
    }

    /**
     * {@return whether {@code out} is gRPC's buffer chain and can take netty buffers}
     * @param out the stream a message is drained into
     */
    static boolean accepts(OutputStream out) {
        return CHAIN != null && CHAIN.isInstance(out);
    }

    /**
     * Appends a netty buffer to the chain; from now on gRPC owns the buffer's reference (it releases it once
     * written, or when the call fails). If this throws, the buffer was released.
     *
     * @param out    a stream {@link #accepts} took
     * @param buffer a readable buffer, full to its capacity
     */
    @SuppressWarnings("unchecked")
    static void append(OutputStream out, ByteBuf buffer) {
        try {
            ((List<Object>) BUFFER_LIST.invokeExact((Object) out)).add(NETTY_WRITABLE_BUFFER.newInstance(buffer));
        } catch (Throwable e) {
            buffer.release();
            throw new IllegalStateException("gRPC's buffer chain refused a buffer", e);
        }
    }
}
