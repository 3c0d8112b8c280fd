package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.type.Field;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.Location;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

import java.util.ArrayList;
import java.util.List;

/**
 * The server of {@link FlightThroughput}, in a child JVM: the same batches served by plain Arrow Java Flight
 * (ticket {@code plain}) and by {@link DeviceFlightProducer}, from the CPU (stream {@code quiver-cpu}) and from
 * OpenCL ({@code quiver-opencl}), all made before it prints {@code listening PORT}. Arguments: batches, rows per
 * batch. Exits when its standard input closes.
 */
public final class BenchServer {
    private BenchServer() {}

    /**
     * @param args batches, rows per batch
     * @throws Exception if it cannot start
     */
    public static void main(String[] args) throws Exception {
        int batches = Integer.parseInt(args[0]);
        int rows = Integer.parseInt(args[1]);
        BufferAllocator allocator = new RootAllocator();
        List<VectorSchemaRoot> roots = new ArrayList<>();
        for (int b = 0; b < batches; b++) {
            roots.add(BenchBatches.batch(b, rows, allocator));
        }
        Devices devices = Devices.system();
        DeviceFlightProducer quiver = new DeviceFlightProducer(allocator, devices.cpu(), devices);
        List<DeviceArray> onCpu = new ArrayList<>();
        List<DeviceArray> onOpenCl = new ArrayList<>();
        for (VectorSchemaRoot root : roots) {
            DeviceArray batch = VectorExport.toDeviceArray(root, null, allocator);
            onOpenCl.add(batch.copyTo(devices.get(DeviceType.OPENCL, 0)));
            onCpu.add(batch);
        }
        Field schema = onCpu.getFirst().field();
        quiver.serve("quiver-cpu", schema, onCpu);
        quiver.serve("quiver-opencl", schema, onOpenCl);
        PlainFlightProducer plain = new PlainFlightProducer(roots, allocator);
        FlightServer server = FlightServer.builder(allocator, Location.forGrpcInsecure("127.0.0.1", 0), new TestProducer(quiver, allocator, plain)).build().start();
        System.out.println("listening " + server.getPort());
        System.out.flush();
        while (System.in.read() >= 0) {
            // serve until the parent closes the pipe
        }
        System.exit(0);
    }
}
