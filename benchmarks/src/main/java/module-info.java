/**
 * JMH benchmarks of Quiver, with the C programs on the other side compiled at run time. Not published;
 * run as described in {@code benchmarks/README.md} (on the class path, with native access granted).
 */
module dev.quiver.benchmarks {
    requires dev.quiver.api;
    requires dev.quiver.baselines;
    requires dev.quiver.arrowjava;
    requires dev.quiver.share;
    requires dev.quiver.flight;            // an automatic module (quiver-flight runs on the class path)
    requires org.apache.arrow.flight.core;
    requires org.apache.arrow.vector;
    requires org.apache.arrow.c;
    requires org.apache.arrow.memory.core;
    requires static org.checkerframework.checker.qual;   // to read the annotations on Arrow Java's classes
    requires jmh.core;
    requires java.desktop;
    requires java.management;
    requires jdk.management;
    // Not a library: JMH reaches the benchmarks and the code it generated for them by reflection.
    opens dev.quiver.benchmarks;
    opens dev.quiver.benchmarks.jmh_generated;
}
