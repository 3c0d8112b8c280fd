/**
 * Quiver on Apache Spark: devices for tasks from Spark's resource scheduler ({@link dev.quiver.spark.SparkDevices}),
 * and Arrow Flight streams as Spark data: the DataSource V2 {@code quiver-flight}
 * ({@link dev.quiver.spark.QuiverFlightSource}) reads each endpoint of a stream as one partition of columnar
 * batches, Spark's {@code ArrowColumnVector}s over the memory Quiver's Flight client received into, and writes each
 * partition of a DataFrame as one Flight put.
 *
 * <p>Spark is a {@code provided} dependency: this module runs in Spark's JVMs (driver and executors), on the class
 * path, beside the Spark of the cluster. Nothing else in Quiver depends on it.
 *
 * <p><b>Ownership and threading.</b> Spark owns and drives every object of the data source: the driver plans
 * (schema, partitions) and the executors read and write, each reader and writer on its task's thread. A reader owns
 * the batches it hands out and releases each when the next is taken, at its close, and at the end of its task,
 * killed or not; a writer owns the rows it has buffered until its put or abort.
 */
package dev.quiver.spark;
