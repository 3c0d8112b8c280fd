package dev.quiver.stream;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.type.Field;

import java.util.Iterator;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * A Java source of device arrays behind an exported ArrowDeviceArrayStream: pulled by one thread at a
 * time (the stream's callbacks are serialized), closed once when the stream is released.
 *
 * <p>{@link #close()} may throw any exception, {@link InterruptedException} included, since it closes what the
 * application handed over (an iterator that is also {@link AutoCloseable}); the stream's release records it.
 */
@SuppressWarnings("try")
interface ArraySource extends AutoCloseable {
    /** @return the next array, owned by the caller; null at the end of the stream */
    DeviceArray next() throws Exception;

    /** Frees what the source holds; called once, after the last {@link #next()}. */
    @Override
    void close() throws Exception;

    static ArraySource of(Iterator<? extends DeviceArray> iterator) {
        Objects.requireNonNull(iterator, "iterator");
        if (iterator instanceof DeviceArrayStream stream) {
            // an imported stream relayed: one call into its gate per array (DeviceArrayStream.poll())
            return new Relayed(stream);
        }
        return new ArraySource() {
            @Override
            public DeviceArray next() {
                return iterator.hasNext() ? requireArray(iterator.next()) : null;
            }

            @Override
            public void close() throws Exception {
                if (iterator instanceof AutoCloseable closeable) {
                    closeable.close();
                }
            }
        };
    }

    /**
     * An imported C stream as the source of an exported one: its arrays can go from producer to consumer
     * without becoming {@link DeviceArray}s ({@link DeviceArrayStream#pollInto}), checked as an import checks
     * them. Closing it closes the imported stream.
     *
     * @param stream the imported stream
     */
    record Relayed(DeviceArrayStream stream) implements ArraySource {
        @Override
        public DeviceArray next() {
            return stream.poll();
        }

        @Override
        public void close() {
            stream.close();
        }

        /** @return whether the imported stream's arrays fit an exported stream of this schema and device type as they are */
        boolean fits(Field schema, DeviceType deviceType) {
            return stream.deviceType().equals(deviceType) && ArrayChecks.sameTypes(stream.schema(), schema);
        }
    }

    static ArraySource of(Stream<? extends DeviceArray> stream) {
        Objects.requireNonNull(stream, "stream");
        ArraySource iterator = of(stream.iterator());
        return new ArraySource() {
            @Override
            public DeviceArray next() throws Exception {
                return iterator.next();
            }

            @Override
            public void close() {
                stream.close();
            }
        };
    }

    static ArraySource of(Supplier<? extends DeviceArray> supplier) {
        Objects.requireNonNull(supplier, "supplier");
        return new ArraySource() {
            @Override
            public DeviceArray next() {
                return supplier.get();
            }

            @Override
            public void close() {
                // a supplier holds nothing to free
            }
        };
    }

    private static DeviceArray requireArray(DeviceArray array) {
        if (array == null) {
            throw new IllegalArgumentException("the iterator returned null (end the stream with hasNext() == false)");
        }
        return array;
    }
}
