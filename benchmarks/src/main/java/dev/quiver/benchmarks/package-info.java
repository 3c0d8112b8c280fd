/**
 * JMH benchmarks. Each reports batches per second where a benchmark moves a stream of record batches
 * ({@code @OperationsPerInvocation} is the batch count), so the figures read directly as throughput.
 */
package dev.quiver.benchmarks;
