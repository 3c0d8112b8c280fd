/**
 * Quiver's own {@code FlightData} data path over gRPC-java, in the Arrow Flight protocol: a codec between host
 * batches and the protobuf and Arrow IPC bytes of {@code FlightData} messages that goes through neither Arrow
 * Java's vectors nor heap arrays of a body's size.
 *
 * <p><b>Sending.</b> {@code FlightDataEncoder} builds the IPC {@code Schema},
 * {@code DictionaryBatch} and {@code RecordBatch} headers from a batch's structs with the arrow-format flatbuffer
 * classes, and the body from the batch's own buffers; {@code OutgoingStream} hands those
 * buffers to gRPC's netty transport as they lie in memory.
 *
 * <p><b>Receiving.</b> {@code FlightDataReader} reads the protobuf fields by hand and
 * copies the body once, from netty's receive buffers into host memory of a Quiver device;
 * {@code FlightDataDecoder} checks the header against the schema and the body that
 * arrived, builds arrays over the body through {@link dev.quiver.ArrayBuilder#of(Field, Device)} and validates them fully
 * before anything is handed out.
 *
 * <p><b>On gRPC.</b> {@link dev.quiver.flight.wire.CodecDoGet} registers Flight's {@code DoGet} with the
 * codec's marshaller in Arrow Java's service (other tickets and methods stay Arrow Java's), and
 * {@link dev.quiver.flight.wire.CodecFetch} is a client's {@code DoGet} call with it, on any Flight server;
 * {@code dev.quiver.flight.DeviceFlightServer} and {@code DeviceFlightClient} use them. These two are public for
 * that module's own packages, not an API of their own.
 *
 * <p><b>Copies per body byte</b>, written down in {@code FlightDataMarshaller} and kept by
 * the tests: sending 0 in the JVM (1 where the transport takes no buffers), receiving 1.
 */
package dev.quiver.flight.wire;
