/**
 * JMH benchmarks. Each reports batches per second where a benchmark moves a stream of record batches
 * ({@code @OperationsPerInvocation} is the batch count), so the figures read directly as throughput. Each
 * extends {@link dev.quiver.benchmarks.BenchmarkState}, the JMH state and settings they share.
 */
package dev.quiver.benchmarks;
