/**
 * Quiver device arrays over Apache Arrow Flight (Arrow Java's {@code flight-core}): a server that serves
 * {@link dev.quiver.stream.DeviceArrayStream}s from any device ({@link dev.quiver.flight.DeviceFlightProducer}),
 * a client that lands fetched batches on any device and sends device streams
 * ({@link dev.quiver.flight.DeviceFlightClient}), and authentication through Flight's middleware
 * ({@link dev.quiver.flight.FlightAuth}). Arrow IPC files and streams are in {@code dev.quiver.flight.ipc}.
 *
 * <p><b>Data path.</b> Sending, a helper thread moves batch n+1 into Arrow Java (a copy to the host for
 * device memory, none for CPU arrays) while batch n is on the wire; receiving, a helper thread reads batch
 * n+1 from the network while batch n is copied to the target device (none for the CPU: the batch keeps the
 * buffers Arrow Java received into). Both stay one batch ahead, so memory is bounded by a few batches
 * whatever the peer's speed, and a server waits for gRPC's readiness before each batch (backpressure).
 *
 * <p><b>Same host.</b> A client and a server on one machine can skip the bytes: a producer with
 * {@link dev.quiver.flight.DeviceFlightProducer#shareLocally(boolean)} on answers the action
 * {@value dev.quiver.flight.DeviceFlightProducer#SHARE_ACTION} (body: a ticket) with a private Unix socket of
 * {@code dev.quiver.share} and its host identity (machine id, boot id, user id), and serves that ticket's stream
 * there, as memory-file handles, to the one receiver that connects first. A client built with
 * {@link dev.quiver.flight.DeviceFlightClient.Builder#preferSameHost(boolean)} asks for it, checks the identity,
 * connects within a timeout and receives the batches mapped into its own memory (no copy at all for batches the
 * server holds in a {@code SharedHostArena}, one copy into shared memory otherwise), copying each to the target
 * device unless it is the CPU; anything else (a server elsewhere or without sharing, a wrong, malformed or slow
 * answer) falls back to {@code DoGet}. {@link dev.quiver.flight.DeviceFlightClient#fetch} returns a
 * {@link dev.quiver.flight.FetchedStream} that tells which route was taken. The server's answer and every batch
 * received are untrusted input, checked as the bytes path checks them; the share socket admits only this user's
 * processes.
 *
 * <p><b>Ownership.</b> Each class states it; in short, streams handed to a producer or client are consumed,
 * streams and arrays handed out belong to the caller, arrays outlive the streams that carried them, and the
 * Arrow Java allocator given to a producer or client must outlive every batch it was charged for. Releases
 * are exact: a cancelled or failed transfer releases every batch it fetched and not handed out.
 *
 * <p><b>Running it.</b> On the class path only (gRPC and netty do not run as named modules beside Arrow
 * Java's netty patch), with the JVM options of {@code quiver-arrow-java}:
 * {@code --add-opens=java.base/java.nio=ALL-UNNAMED --enable-native-access=ALL-UNNAMED -Dio.netty.noUnsafe=false}.
 */
package dev.quiver.flight;
