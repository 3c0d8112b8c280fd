package dev.quiver.flight;

import java.util.ArrayList;
import java.util.List;

/**
 * What {@link FlightThroughput} measured of one path on one case: the rate of each measured run (MiB of Arrow
 * buffer bytes per second), the heap allocated over the measured runs on the client (this JVM, all threads) and on
 * the server (the child JVM, all threads; not for the floor, whose both ends are here), or why the path failed.
 * Filled by one thread, then read.
 */
final class BenchResult {
    private final BenchCase benchCase;
    private final BenchPath path;
    private final long bytes;
    private final List<Double> rates = new ArrayList<>();
    private long clientHeap;
    private long serverHeap;
    private String failure;

    /**
     * @param benchCase the case
     * @param path      the path
     * @param bytes     the buffer bytes of all the case's batches
     */
    BenchResult(BenchCase benchCase, BenchPath path, long bytes) {
        this.benchCase = benchCase;
        this.path = path;
        this.bytes = bytes;
    }

    /** An absent result: the path's target is not on this machine. */
    static BenchResult absent(BenchCase benchCase, BenchPath path) {
        BenchResult result = new BenchResult(benchCase, path, 0);
        result.failure = "no device";
        return result;
    }

    /**
     * Adds a measured run.
     *
     * @param seconds    how long it took
     * @param clientHeap heap the client allocated meanwhile
     * @param serverHeap heap the server allocated meanwhile
     */
    void add(double seconds, long clientHeap, long serverHeap) {
        rates.add(bytes / seconds / (1 << 20));
        this.clientHeap += clientHeap;
        this.serverHeap += serverHeap;
    }

    /** @param failure why the path failed; no later run is made */
    void fail(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && !(root instanceof OutOfMemoryError)) {
            root = root.getCause();
        }
        this.failure = root.getClass().getSimpleName() + (root.getMessage() == null ? "" : ": " + root.getMessage());
    }

    /** {@return whether the path failed or could not run} */
    boolean failed() {
        return failure != null;
    }

    /** {@return why it failed, or null} */
    String failure() {
        return failure;
    }

    BenchCase benchCase() {
        return benchCase;
    }

    BenchPath path() {
        return path;
    }

    /** {@return the buffer bytes of all the case's batches} */
    long bytes() {
        return bytes;
    }

    /** {@return the measured runs} */
    int runs() {
        return rates.size();
    }

    /** {@return the median MiB/s, NaN without a measured run} */
    double median() {
        double[] sorted = sorted();
        if (sorted.length == 0) {
            return Double.NaN;
        }
        return sorted.length % 2 == 1 ? sorted[sorted.length / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
    }

    /** {@return the lowest MiB/s, NaN without a measured run} */
    double min() {
        double[] sorted = sorted();
        return sorted.length == 0 ? Double.NaN : sorted[0];
    }

    /** {@return the highest MiB/s, NaN without a measured run} */
    double max() {
        double[] sorted = sorted();
        return sorted.length == 0 ? Double.NaN : sorted[sorted.length - 1];
    }

    /** {@return the client's heap bytes per batch, NaN without a measured run} */
    double clientHeapPerBatch() {
        return rates.isEmpty() ? Double.NaN : clientHeap / ((double) rates.size() * benchCase.batches());
    }

    /** {@return the server's heap bytes per batch, NaN without a measured run or for the floor} */
    double serverHeapPerBatch() {
        return rates.isEmpty() || path.kind() == BenchPath.Kind.FLOOR ? Double.NaN : serverHeap / ((double) rates.size() * benchCase.batches());
    }

    private double[] sorted() {
        return rates.stream().mapToDouble(Double::doubleValue).sorted().toArray();
    }
}
