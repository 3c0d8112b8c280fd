/**
 * How {@code quiver bench} measures: warm-ups that end once timings settle, Quiver and its baseline sampled
 * alternately ({@link dev.quiver.cli.bench.Sampler}), and the figures with their spread ({@link
 * dev.quiver.cli.bench.Measure}, {@link dev.quiver.cli.bench.Comparison}). The C baselines and the batches
 * they move are in {@code dev.quiver.baselines}.
 */
package dev.quiver.cli.bench;
