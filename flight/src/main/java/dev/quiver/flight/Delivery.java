package dev.quiver.flight;

/**
 * The order in which a stream fetched from several endpoints at once hands out its batches
 * ({@link DeviceFlightClient#get(org.apache.arrow.flight.FlightInfo, dev.quiver.Device, Delivery, org.apache.arrow.flight.CallOption...)}).
 */
public enum Delivery {
    /** Every batch of endpoint 0 in its order, then every batch of endpoint 1, and so on: the stream the server split. */
    IN_ORDER,
    /** Each batch as soon as it has landed, whatever its endpoint; the batches of one endpoint keep their order. */
    AS_THEY_COME
}
