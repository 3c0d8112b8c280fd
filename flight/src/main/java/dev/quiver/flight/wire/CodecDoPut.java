package dev.quiver.flight.wire;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.type.Field;
import io.grpc.MethodDescriptor;
import io.grpc.ServerMethodDefinition;
import io.grpc.ServerServiceDefinition;
import io.grpc.protobuf.ProtoUtils;
import org.apache.arrow.flight.impl.Flight;
import org.apache.arrow.flight.impl.FlightServiceGrpc;

import java.time.Duration;
import java.util.List;

/**
 * The server's {@code DoPut} on Quiver's data path: Flight's gRPC service with {@code DoPut} registered with the
 * codec's marshaller, every other method left as it was. Each message's body is copied once, from gRPC's
 * buffers into host memory, then checked and built into a batch ({@link FlightDataDecoder}) on the call's
 * thread and, for a device target, copied onto the device; at the end of the stream the batches go to the
 * {@link PutTarget}, whose answer is sent back as the acknowledgement's {@code app_metadata} (see
 * {@link PutReceiving}). Any Flight client puts to it: the bytes are Flight's protocol.
 *
 * <p>Stateless; the definition it returns is thread-safe as gRPC requires.
 */
public final class CodecDoPut {
    private CodecDoPut() {}

    /**
     * Where the streams clients put go.
     *
     * <p><b>Threading.</b> Called from the threads of the server's executor, several calls at once.
     */
    public interface PutTarget {
        /** {@return the device the batches land on} */
        Device device();

        /** {@return how long a put may take to send its schema before it is refused} */
        Duration schemaTimeout();

        /**
         * {@return the name of the stream a put's descriptor names}
         * @param descriptor the first message's {@code FlightDescriptor}
         * @throws IllegalArgumentException if it names no stream this target takes (the message says why)
         */
        String name(Flight.FlightDescriptor descriptor);

        /**
         * Counts body bytes received, for statistics.
         *
         * @param bytes the body bytes of one message
         */
        void bodyReceived(long bytes);

        /**
         * Takes a stream whose every batch arrived and was checked.
         *
         * @param name    its name
         * @param schema  the struct field of its batches
         * @param batches its batches on {@link #device()}, owned by the target from now on
         * @return what the acknowledgement carries as {@code app_metadata}
         * @throws RuntimeException if the stream cannot be taken; the target has closed the batches then
         */
        byte[] received(String name, Field schema, List<DeviceArray> batches);
    }

    /**
     * Registers {@code DoPut} with the codec's marshaller in place of Flight's own.
     *
     * @param flight Flight's service as Arrow Java binds it (possibly with other methods already replaced)
     * @param target where the streams go
     * @return the service with {@code DoPut} replaced, the same name and every other method unchanged
     * @throws IllegalArgumentException if {@code flight} is not Flight's service
     */
    public static ServerServiceDefinition replaceDoPut(ServerServiceDefinition flight, PutTarget target) {
        String doPutName = FlightServiceGrpc.getDoPutMethod().getFullMethodName();
        if (flight.getMethod(doPutName) == null) {
            throw new IllegalArgumentException("the service " + flight.getServiceDescriptor().getName() + " has no " + doPutName);
        }
        MethodDescriptor<FlightMessage, Flight.PutResult> method = MethodDescriptor.<FlightMessage, Flight.PutResult>newBuilder()
                .setType(MethodDescriptor.MethodType.BIDI_STREAMING)
                .setFullMethodName(doPutName)
                .setRequestMarshaller(new FlightDataMarshaller(dev.quiver.Devices.system().cpu(), FlightDataMarshaller.DEFAULT_MAX_HEADER_BYTES))
                .setResponseMarshaller(ProtoUtils.marshaller(Flight.PutResult.getDefaultInstance()))
                .build();
        ServerServiceDefinition.Builder out = ServerServiceDefinition.builder(flight.getServiceDescriptor().getName());
        for (ServerMethodDefinition<?, ?> definition : flight.getMethods()) {
            if (!definition.getMethodDescriptor().getFullMethodName().equals(doPutName)) {
                out.addMethod(definition);
            }
        }
        out.addMethod(method, (call, headers) -> PutReceiving.start(call, target));
        return out.build();
    }
}
