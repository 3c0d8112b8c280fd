/**
 * {@code quiver flight}: {@code serve} offers Arrow IPC files or generated data over Arrow Flight, from any
 * device; {@code get} fetches a stream from a Flight server onto a device, with progress on a terminal. The
 * command classes hold only options; the work is in {@link dev.quiver.cli.flight.FlightServing} and
 * {@link dev.quiver.cli.flight.FlightFetching}, which alone use Arrow Flight (with
 * {@link dev.quiver.cli.flight.FlightBench}, the work of {@code quiver bench --flight}), so the other commands run
 * without it. Flight runs on the class path ({@code ./quiver flight} arranges that).
 */
package dev.quiver.cli.flight;
