/**
 * The C baselines Quiver is measured against, compiled with the system C compiler (gcc -O2) on first use:
 * export + import + release of a record batch, a memcpy round trip, the OpenCL and CUDA calls a C application
 * makes, and C-to-C streams; and the record batches the benchmarks move ({@link
 * dev.quiver.baselines.BenchBatches}). Used by {@code quiver bench} and by the JMH benchmarks, so both compare
 * against the same C. Nothing here is needed unless a benchmark runs; a missing compiler fails the benchmark,
 * clearly.
 */
package dev.quiver.baselines;
