package dev.quiver.benchmarks.handoff;

import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.flight.DeviceFlightClient;
import dev.quiver.flight.FetchedStream;
import dev.quiver.share.ReceiveOptions;
import dev.quiver.share.ReceivedBatch;
import dev.quiver.share.ShareClient;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@link HandoffVersusFlight} with {@code --device vulkan}: the zero-copy handoff of one int64 batch on Mesa's
 * lavapipe between two JVMs, measured in one run side by side with the same batch through Quiver's Flight on
 * loopback. The owner, {@link HandoffOwner} in a child JVM, copies each batch onto its lavapipe device once,
 * before anything is timed, and serves lavapipe on its share sockets. This JVM finds its own lavapipe
 * ({@link LavapipeDevice}) and, for each size, smallest first:
 * <ol>
 *   <li><b>share handoff</b>, {@code --handoffs} times: a fresh {@code ShareClient} connection for arrays of
 *       this JVM's lavapipe ({@link #TRUSTED_OWNER}), then the batch asked for and held (BATCH with a {@code VULKAN_FD} descriptor, the
 *       descriptor imported as device memory, the array built) and its last value read, which on Vulkan means
 *       that one row copied to the host (there is no host pointer); the clock runs from asking for the batch,
 *       and once more from opening the connection. Whether each arrived zero-copy and on which device type is
 *       recorded in the row;</li>
 *   <li><b>Flight DoGet bytes</b>, {@code --flight-runs} times: {@code DeviceFlightClient} over gRPC on loopback,
 *       received on the host: the owner's producer copies the Vulkan batch to the host and sends its bytes;
 *       timed from the fetch to the batch in hand (every byte arrived and checked) and its last value read.</li>
 * </ol>
 * The first timing of each route and size also reads every value of the batch (on Vulkan copied to the host in
 * pieces), after its clock stopped. Before the sizes, each route runs a few times on the smallest one, untimed.
 * Memory as for the host batches (see {@link HandoffVersusFlight}); lavapipe's device memory is host memory too,
 * one batch of each size in the owner. The Khronos validation layer runs where {@code -Dquiver.vulkan.validation=true}
 * is given (the owner gets the setting too) and slows every Vulkan call; the table says whether it ran, and a
 * run whose owner reported a validation message fails once the owner ended.
 * Single-threaded.
 */
final class VulkanHandoffVersusFlight {
    /**
     * How the handoffs receive: the default window and bounds, contents not validated. The owner is this JVM's own
     * child; the structure, the handles and every buffer's place in its memory are still checked. Validating the
     * contents of a device array copies all of it to the host first (the share receiver's rule where there is no
     * host pointer), a cost that grows with the batch (docs/PERFORMANCE.md).
     */
    static final ReceiveOptions TRUSTED_OWNER = new ReceiveOptions(ReceiveOptions.defaults().window(), false);

    private VulkanHandoffVersusFlight() {}

    /**
     * What one run measured. Immutable.
     *
     * @param deviceName the name of the lavapipe device this JVM received on
     * @param validation whether the Khronos validation layer ran
     * @param rows       one row per size, in the order of the options
     */
    record Run(String deviceName, boolean validation, List<VulkanHandoffRow> rows) {
        /** Copies the rows. */
        Run {
            rows = List.copyOf(rows);
        }
    }

    /**
     * Measures every size.
     *
     * @param options what to measure; its device is {@link HandoffDevice#VULKAN}
     * @return what was measured
     * @throws Exception if lavapipe is missing, the owner cannot start, a transfer fails or a received batch is wrong
     */
    @SuppressWarnings("try")   // DeviceFlightClient.close() may throw InterruptedException; this method declares Exception
    static Run run(HandoffVersusFlight.Options options) throws Exception {
        if (options.device() != HandoffDevice.VULKAN) {
            throw new IllegalArgumentException("the Vulkan harness measures --device vulkan, not " + options.device().optionValue());
        }
        List<String> ownerJvm = HandoffVersusFlight.ownerJvm(options);
        Device lavapipe = LavapipeDevice.of(Devices.system());
        List<VulkanHandoffRow> rows = new ArrayList<>();
        OwnerProcess started;
        try (OwnerProcess owner = started = OwnerProcess.start(HandoffDevice.VULKAN, options.rows(), ownerJvm);
             BufferAllocator allocator = new RootAllocator();
             DeviceFlightClient bytes = DeviceFlightClient.builder(owner.location(), allocator).build()) {
            long smallest = options.rows().stream().mapToLong(r -> r).min().orElseThrow();
            for (int i = 0; i < HandoffVersusFlight.WARM_UP; i++) {
                handoff(owner.socket(smallest), lavapipe, smallest, false);
                HandoffVersusFlight.fetch(bytes, smallest, FetchedStream.Route.FETCHED, false);
            }
            for (long size : options.rows()) {
                long[] handoff = new long[options.handoffs()];
                long[] withConnect = new long[options.handoffs()];
                int zeroCopy = 0;
                Set<DeviceType> arrivedOn = new HashSet<>();
                for (int i = 0; i < options.handoffs(); i++) {
                    Handoff one = handoff(owner.socket(size), lavapipe, size, i == 0);
                    handoff[i] = one.fromAsking();
                    withConnect[i] = one.fromConnecting();
                    zeroCopy += one.zeroCopy() ? 1 : 0;
                    arrivedOn.add(one.arrivedOn());
                }
                if (arrivedOn.size() != 1) {
                    throw new IllegalStateException("the handoffs of " + size + " rows arrived on several device types: " + arrivedOn);
                }
                long[] fetched = new long[options.flightRuns()];
                for (int i = 0; i < options.flightRuns(); i++) {
                    fetched[i] = HandoffVersusFlight.fetch(bytes, size, FetchedStream.Route.FETCHED, i == 0);
                }
                rows.add(new VulkanHandoffRow(size, new Samples(handoff), new Samples(withConnect), new Samples(fetched), zeroCopy,
                        arrivedOn.iterator().next()));
            }
        }
        if (started.exitStatus() != 0) {
            throw new IllegalStateException("the owner JVM ended with status " + started.exitStatus() + (started.exitStatus()
                    == HandoffOwner.VALIDATION_STATUS ? ": the validation layer reported in its process (its standard error says what)" : ""));
        }
        return new Run(lavapipe.name(), LavapipeDevice.validation(), rows);
    }

    /**
     * One handoff.
     *
     * @param fromAsking     nanoseconds from asking for the batch to its last value read
     * @param fromConnecting nanoseconds from opening the connection to the same
     * @param zeroCopy       whether the batch arrived with no copy
     * @param arrivedOn      the device type of the array received
     */
    private record Handoff(long fromAsking, long fromConnecting, boolean zeroCopy, DeviceType arrivedOn) {}

    /** One share handoff onto {@code device} on a fresh connection. */
    private static Handoff handoff(Path socket, Device device, long rows, boolean checkAll) {
        long connecting = System.nanoTime();
        try (ShareClient client = ShareClient.connect(socket, device, TRUSTED_OWNER)) {
            long asking = System.nanoTime();
            ReceivedBatch received = client.next().orElseThrow(() -> new IllegalStateException("the owner sent no batch of " + rows + " rows"));
            try (DeviceArray batch = received.array()) {
                HandoffBatches.checkLastCopied(batch);
                long held = System.nanoTime();
                if (checkAll) {
                    HandoffBatches.checkAllCopied(batch, rows);
                }
                if (client.next().isPresent()) {
                    throw new IllegalStateException("the owner sent more than one batch of " + rows + " rows");
                }
                return new Handoff(held - asking, held - connecting, received.isZeroCopy(), batch.deviceType());
            }
        }
    }
}
