package dev.quiver.flight;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.vector.FieldVector;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;

/**
 * One way {@link FlightThroughput} moves a case's bytes: the raw TCP floor ({@link TcpFloor}: as many socket pairs
 * as the case has streams), plain Arrow Java Flight (a {@code FlightClient.getStream} per stream, several on
 * threads of their own, each reading every batch, all on the client's one connection), or Quiver's
 * {@link DeviceFlightClient} landing every batch on a target device (one stream by its ticket, several with
 * {@link DeviceFlightClient#get(FlightInfo, Device, Delivery, org.apache.arrow.flight.CallOption...)} as they come,
 * on the client's one connection), closing every batch.
 *
 * @param kind   which way
 * @param target where Quiver lands the batches; null for the other kinds
 * @param label  its name in the table and the CSV
 */
record BenchPath(Kind kind, Device target, String label) {
    /** The ways. */
    enum Kind {
        /** The same bytes through socket pairs. */
        FLOOR,
        /** Plain Arrow Java Flight on both sides. */
        PLAIN,
        /** Quiver's {@code DoGet} path on both sides. */
        QUIVER
    }

    /** {@return the floor} */
    static BenchPath floor() {
        return new BenchPath(Kind.FLOOR, null, "floor");
    }

    /** {@return plain Arrow Java} */
    static BenchPath plain() {
        return new BenchPath(Kind.PLAIN, null, "plain");
    }

    /**
     * @param target where the batches land
     * @param name   the target's name as given ({@code cpu}, {@code opencl}, ...)
     * @return Quiver onto {@code target}
     */
    static BenchPath quiver(Device target, String name) {
        return new BenchPath(Kind.QUIVER, target, "quiver-" + name);
    }

    /**
     * The clients one run of every path of a case uses. Owns nothing it is given; the caller closes the clients
     * and the executor. One thread at a time.
     */
    static final class Clients {
        private final FlightClient plain;
        private final DeviceFlightClient quiver;
        private final ExecutorService threads;
        private final Map<String, FlightInfo> infos = new HashMap<>();

        /**
         * @param plain   Arrow Java's client
         * @param quiver  Quiver's client, of the same server
         * @param threads runs the streams of a plain case of several streams, one thread each
         */
        Clients(FlightClient plain, DeviceFlightClient quiver, ExecutorService threads) {
            this.plain = plain;
            this.quiver = quiver;
            this.threads = threads;
        }

        /**
         * Moves the case's bytes once on {@code path}.
         *
         * @param path  the way
         * @param c     the case
         * @param bytes the case's buffer bytes, all batches
         */
        void run(BenchPath path, BenchCase c, long bytes) {
            switch (path.kind()) {
                case FLOOR -> TcpFloor.seconds(bytes, c.streams());
                case PLAIN -> plain(c);
                case QUIVER -> quiver(c, path.target());
            }
        }

        private void plain(BenchCase c) {
            if (c.streams() == 1) {
                plainStream(c, 0);
                return;
            }
            List<Future<Long>> streams = new ArrayList<>();
            for (int part = 0; part < c.streams(); part++) {
                int p = part;
                streams.add(threads.submit(() -> plainStream(c, p)));
            }
            try {
                for (Future<Long> stream : streams) {
                    stream.get();
                }
            } catch (ExecutionException e) {
                throw new IllegalStateException("a plain stream failed", e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }

        /** Receives one plain stream with Arrow Java alone; returns the bytes of its buffers. */
        private long plainStream(BenchCase c, int part) {
            long bytes = 0;
            try (FlightStream stream = plain.getStream(c.plainTicket(part))) {
                while (stream.next()) {
                    for (FieldVector vector : stream.getRoot().getFieldVectors()) {
                        bytes += vector.getBufferSize();
                    }
                }
            } catch (Exception e) {
                throw new IllegalStateException("the plain stream failed: " + e, e);
            }
            return bytes;
        }

        /** Receives the case's Quiver stream onto {@code target}, closing each batch. */
        private void quiver(BenchCase c, Device target) {
            FlightInfo info = infos.computeIfAbsent(c.quiverName(), quiver::info);
            try (DeviceArrayStream stream = c.streams() == 1 ? quiver.get(info.getEndpoints().getFirst().getTicket(), target)
                    : quiver.get(info, target, Delivery.AS_THEY_COME)) {
                while (stream.hasNext()) {
                    try (DeviceArray batch = stream.next()) {
                        batch.length();
                    }
                }
            }
        }
    }
}
