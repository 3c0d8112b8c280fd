package dev.quiver.stream;

import dev.quiver.DeviceType;
import dev.quiver.type.Field;

import java.util.Map;
import java.util.concurrent.Flow;

/**
 * The subscription a publisher made by {@link AsyncDeviceStreams#importProducer} hands to its subscriber,
 * once the C producer has called {@code on_schema}: the stream's schema, device type and
 * {@code additional_metadata} come with it.
 *
 * <p>{@link #request(long)} and {@link #cancel()} may be called from any thread, including from inside
 * {@code onSubscribe} and {@code onNext} (which run inside the producer's {@code on_schema} and
 * {@code on_next_task}); they call the C producer's {@code request} and {@code cancel} directly and never
 * after the producer released the handler. {@code request(n)} with {@code n <= 0} cancels the producer
 * and signals {@link IllegalArgumentException} through {@code onError}, as {@link Flow} demands.
 */
public interface DeviceArraySubscription extends Flow.Subscription {
    /** {@return the schema of every array; null only if the stream failed before {@code on_schema}} */
    Field schema();

    /** {@return the producer's {@code device_type}; null only if the stream failed before {@code on_schema}} */
    DeviceType deviceType();

    /** {@return the producer's {@code additional_metadata}, decoded; empty if it was NULL} */
    Map<String, String> additionalMetadata();
}
