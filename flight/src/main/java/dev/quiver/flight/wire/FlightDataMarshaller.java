package dev.quiver.flight.wire;

import dev.quiver.Device;
import io.grpc.MethodDescriptor;

import java.io.InputStream;

/**
 * gRPC's marshaller for {@code FlightData} on Quiver's own data path: {@link #stream} writes a message from
 * the memory it holds (see {@link OutgoingStream}), {@link #parse} reads one into host memory of a device
 * (see {@link FlightDataReader}). A method descriptor of Flight's service with this marshaller in place of
 * the generated protobuf one carries the same bytes on the wire, so peers see the protocol unchanged.
 *
 * <p><b>Copies per body byte.</b> Sending from host memory: none in the JVM where gRPC's netty buffer chain
 * takes the batch's buffers (then the kernel copies once into the socket), one otherwise. Receiving: one,
 * from netty's receive buffers into the body's allocation (the kernel copied once into those before). The
 * header fields are copied into heap arrays of their own size (a few dozen bytes per column). Heap per batch,
 * measured by {@code WireHeapTest} over loopback: sending about 1.4 KB whatever the batch's size; receiving a
 * few KB plus gRPC's objects for each 16 KiB HTTP/2 frame of the body (about 1% of the body's size).
 *
 * <p><b>Ownership.</b> {@link #stream} takes over the message's memory; the message {@link #parse} returns
 * belongs to whoever gRPC hands it to, who closes it or gives it to a {@link FlightDataDecoder}.
 * <b>Threading.</b> Stateless beyond its settings; any thread, as gRPC calls it.
 */
final class FlightDataMarshaller implements MethodDescriptor.Marshaller<FlightMessage> {
    /** The default bound on a header field (descriptor, data_header, app_metadata). */
    static final int DEFAULT_MAX_HEADER_BYTES = 64 * 1024 * 1024;

    private final Device device;
    private final int maxHeaderBytes;

    /**
     * @param device         host-accessible memory received bodies land in: the CPU, or pinned host memory
     *                       where the batches go on to a device
     * @param maxHeaderBytes the largest header field accepted
     * @throws IllegalArgumentException if the device's memory is not host-accessible
     */
    FlightDataMarshaller(Device device, int maxHeaderBytes) {
        if (!device.isHostAccessible()) {
            throw new IllegalArgumentException(device + " is not host-accessible: FlightData bodies are received into host memory");
        }
        this.device = device;
        this.maxHeaderBytes = maxHeaderBytes;
    }

    @Override
    public InputStream stream(FlightMessage message) {
        return message.stream();
    }

    @Override
    public FlightMessage parse(InputStream stream) {
        return FlightDataReader.read(stream, device, maxHeaderBytes);
    }
}
