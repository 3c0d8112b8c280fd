package dev.quiver.spark;

import org.apache.spark.sql.SparkSession;

/**
 * The Spark of the tests that run in this JVM: local mode with 4 task threads, made once and shared by the test
 * classes (starting Spark takes seconds), stopped when the JVM exits (made again if a test stopped it). Spark 4.2's
 * local mode assigns no custom resources to tasks (resources are tested in {@link LocalClusterTest}).
 */
final class LocalSpark {
    private static SparkSession session;

    private LocalSpark() {}

    static synchronized SparkSession session() {
        if (session == null || session.sparkContext().isStopped()) {
            session = SparkSession.builder().master("local[4]").appName("quiver-spark tests")
                    .config("spark.ui.enabled", "false")
                    .config("spark.sql.shuffle.partitions", "4")
                    .getOrCreate();
            Runtime.getRuntime().addShutdownHook(new Thread(session::stop));
        }
        return session;
    }
}
