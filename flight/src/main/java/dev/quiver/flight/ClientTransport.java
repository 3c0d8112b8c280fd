package dev.quiver.flight;

import io.grpc.netty.NettyChannelBuilder;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.Http2ConnectionHandler;
import org.apache.arrow.flight.Location;

import java.util.Set;

/**
 * The netty transport of Quiver's Flight clients over TCP: gRPC's HTTP/2 handler gathers the bytes of a frame
 * split over socket reads by composing netty's receive buffers ({@link ByteToMessageDecoder#COMPOSITE_CUMULATOR})
 * instead of copying each read into one growing buffer (netty's default), which saves a copy of nearly every body
 * byte a fetch receives: the frames of a large message are 16 KiB and a read rarely ends on a frame's edge. The
 * codec's reader takes the body from the composed buffers as they are ({@code io.grpc.HasByteBuffer}). Everything
 * else is gRPC's; the channels run on one shared group of NIO daemon event loops (gRPC's default group would
 * be epoll's where netty's native transport is on the class path).
 *
 * <p><b>Threading.</b> Thread-safe; the event loop group is made on first use and lives as long as the JVM (its
 * threads are daemons), like gRPC's own shared group.
 */
final class ClientTransport {
    /** The location schemes a gRPC client reaches over TCP. */
    static final Set<String> TCP_SCHEMES = Set.of("grpc", "grpc+tcp", "grpc+tls");

    private ClientTransport() {}

    /**
     * @param builder  a channel builder for {@code location}
     * @param location the server
     * @return the builder, with the composing transport where the location is TCP (others keep what Arrow Java chose)
     */
    static NettyChannelBuilder apply(NettyChannelBuilder builder, Location location) {
        if (!TCP_SCHEMES.contains(location.getUri().getScheme())) {
            return builder;
        }
        return builder.eventLoopGroup(Loops.GROUP).channelFactory(ComposingChannel::new);
    }

    /** The shared event loops, made on first use. */
    private static final class Loops {
        static final EventLoopGroup GROUP = new MultiThreadIoEventLoopGroup(Runtime.getRuntime().availableProcessors(),
                Thread.ofPlatform().daemon().name("quiver-flight-client-io-", 0).factory(), NioIoHandler.newFactory());
    }

    /** A socket channel whose HTTP/2 handler composes what it gathers. */
    private static final class ComposingChannel extends NioSocketChannel {
        ComposingChannel() {
            pipeline().addFirst(new Composing());
        }
    }

    /**
     * Sets the composing cumulator on gRPC's HTTP/2 handler at the first read that finds it in the pipeline (it
     * is added once the connection's protocol is settled, after TLS where there is TLS), then leaves the pipeline.
     * Runs on the channel's event loop.
     */
    private static final class Composing extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext context, Object message) {
            Http2ConnectionHandler http2 = context.pipeline().get(Http2ConnectionHandler.class);
            if (http2 != null) {
                http2.setCumulator(ByteToMessageDecoder.COMPOSITE_CUMULATOR);
                context.pipeline().remove(this);
            }
            context.fireChannelRead(message);
        }
    }
}
