package dev.quiver.stream;

import dev.quiver.DeviceArray;

import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongFunction;
import java.util.function.Supplier;

/**
 * A small, rule-abiding {@link Flow.Publisher} for the tests: emits {@code count} arrays made on demand
 * (so nothing is made that is not requested), or fails at {@code failAt}. It honours request(n) and
 * cancel, and emits synchronously on the thread that requests.
 */
final class RangePublisher implements Flow.Publisher<DeviceArray> {
    private final long count;
    private final LongFunction<DeviceArray> make;
    private final long failAt;
    private final Supplier<Throwable> failure;
    final AtomicBoolean cancelled = new AtomicBoolean();
    final AtomicLong emitted = new AtomicLong();

    RangePublisher(long count, LongFunction<DeviceArray> make) {
        this(count, make, -1, null);
    }

    RangePublisher(long count, LongFunction<DeviceArray> make, long failAt, Supplier<Throwable> failure) {
        this.count = count;
        this.make = make;
        this.failAt = failAt;
        this.failure = failure;
    }

    @Override
    public void subscribe(Flow.Subscriber<? super DeviceArray> subscriber) {
        subscriber.onSubscribe(new Subscription(subscriber));
    }

    private final class Subscription implements Flow.Subscription {
        private final Flow.Subscriber<? super DeviceArray> subscriber;
        private final AtomicLong demand = new AtomicLong();
        private final AtomicInteger wip = new AtomicInteger();
        private long next;
        private boolean done;

        Subscription(Flow.Subscriber<? super DeviceArray> subscriber) {
            this.subscriber = subscriber;
        }

        @Override
        public void request(long n) {
            if (n <= 0) {
                cancel();
                subscriber.onError(new IllegalArgumentException("n <= 0"));
                return;
            }
            demand.getAndAccumulate(n, (a, b) -> a + b < 0 ? Long.MAX_VALUE : a + b);
            drain();
        }

        @Override
        public void cancel() {
            cancelled.set(true);
        }

        private void drain() {
            if (wip.getAndIncrement() != 0) {
                return;
            }
            int missed = 1;
            do {
                while (!done && !cancelled.get()) {
                    if (next == failAt) {
                        done = true;
                        subscriber.onError(failure.get());
                    } else if (next == count) {
                        done = true;
                        subscriber.onComplete();
                    } else if (demand.get() > 0) {
                        demand.decrementAndGet();
                        emitted.incrementAndGet();
                        subscriber.onNext(make.apply(next++));
                    } else {
                        break;
                    }
                }
                missed = wip.addAndGet(-missed);
            } while (missed != 0);
        }
    }
}
