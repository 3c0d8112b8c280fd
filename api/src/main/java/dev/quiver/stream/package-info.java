/**
 * Streams of device arrays over the Arrow C Device Data Interface: the pull-style
 * {@code ArrowDeviceArrayStream} ({@link dev.quiver.stream.DeviceArrayStream} to consume one from C,
 * {@link dev.quiver.stream.DeviceArrayStream#of} and {@link dev.quiver.stream.DeviceArrayStream#exportTo} to export a Java source to C) and the async device stream
 * bridged to {@link java.util.concurrent.Flow} ({@link dev.quiver.stream.AsyncDeviceStreams}).
 *
 * <p>Ownership follows the specification: stream structs are moved, arrays handed out are owned by the
 * receiver and outlive the stream, every imported struct is released exactly once (also when it is
 * rejected), and Quiver's own structs keep only ids in {@code private_data}. Callbacks from C never
 * throw; Java failures become {@code errno} codes ({@link dev.quiver.stream.Errno}) and C codes become
 * {@link dev.quiver.stream.StreamException}s carrying the other side's message. Misuse from either side
 * (concurrent calls, calls after release) gets a clear error, never a crash.
 */
package dev.quiver.stream;
