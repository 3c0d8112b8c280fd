package dev.quiver.stream;

import dev.quiver.DeviceArray;

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
