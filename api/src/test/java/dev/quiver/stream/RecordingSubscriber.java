package dev.quiver.stream;

import dev.quiver.DeviceArray;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Flow;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Flow subscriber for the tests: requests {@code initial} arrays in onSubscribe and one more from inside
 * each onNext, checks each array's values, closes it, and records every signal. It counts signals that
 * overlap or nest (which must never happen) and can cancel after {@code cancelAfter} arrays.
 */
class RecordingSubscriber implements Flow.Subscriber<DeviceArray> {
    private final long initial;
    private final long cancelAfter;
    final AtomicLong received = new AtomicLong();
    final AtomicLong wrongValues = new AtomicLong();
    final AtomicInteger overlapping = new AtomicInteger();
    final AtomicInteger completions = new AtomicInteger();
    final List<Throwable> errors = new CopyOnWriteArrayList<>();
    final List<Thread> nextThreads = new CopyOnWriteArrayList<>();
    final CountDownLatch terminated = new CountDownLatch(1);
    final CountDownLatch cancelled = new CountDownLatch(1);
    private final AtomicInteger inside = new AtomicInteger();
    volatile DeviceArraySubscription subscription;

    RecordingSubscriber(long initial, long cancelAfter) {
        this.initial = initial;
        this.cancelAfter = cancelAfter;
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        enter();
        try {
            subscription = s instanceof DeviceArraySubscription d ? d : null;
            s.request(initial);
        } finally {
            inside.decrementAndGet();
        }
    }

    @Override
    public void onNext(DeviceArray array) {
        enter();
        try (array) {
            long index = received.getAndIncrement();
            if (nextThreads.isEmpty()) {
                nextThreads.add(Thread.currentThread());
            }
            if (!Batches.values(index).equals(Batches.read(array))) {
                wrongValues.incrementAndGet();
            }
            if (index + 1 == cancelAfter) {
                subscription.cancel();
                subscription.cancel();
                cancelled.countDown();
            } else {
                subscription.request(1);
            }
        } finally {
            inside.decrementAndGet();
        }
    }

    @Override
    public void onError(Throwable throwable) {
        enter();
        errors.add(throwable);
        inside.decrementAndGet();
        terminated.countDown();
    }

    @Override
    public void onComplete() {
        enter();
        completions.incrementAndGet();
        inside.decrementAndGet();
        terminated.countDown();
    }

    private void enter() {
        if (inside.incrementAndGet() != 1) {
            overlapping.incrementAndGet();
        }
    }

    boolean awaitTerminated() throws InterruptedException {
        return terminated.await(30, TimeUnit.SECONDS);
    }
}
