package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.host.HostVector;
import dev.quiver.share.internal.arrays.KnownRegions;
import dev.quiver.share.internal.arrays.PlannedBatch;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.Connection;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.Handshake;
import dev.quiver.share.internal.protocol.MessageType;
import dev.quiver.type.Field;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Batches a {@link HostileOwner} sends: one small utf8 array placed in a shared arena and planned as the owner
 * plans it, sent as it is or tampered with, and the refusal a {@link ShareClient} answers with. Stateless.
 */
@SuppressWarnings("try")   // the hold is closed by try-with-resources, unused inside
final class HostileBatches {
    static final Field SCHEMA = HostVector.utf8("s", "x").field();
    /** The one region of a planned batch, introduced as region 1. */
    static final KnownRegions.Assignment FIRST_USE = new KnownRegions.Assignment(new long[] {1}, new boolean[] {true}, new long[0]);
    /** The same region, named by id as a later batch names it. */
    static final KnownRegions.Assignment LATER_USE = new KnownRegions.Assignment(new long[] {1}, new boolean[] {false}, new long[0]);
    static final Handshake.Welcome WELCOME = new Handshake.Welcome(2, HostileOwner.CPU, 1);
    /** A receiver that accepted what it should refuse gives up on the silent owner rather than wait for ever. */
    static final ReceiveOptions PATIENT = ReceiveOptions.defaults().withTimeout(Duration.ofSeconds(10));

    private HostileBatches() {}

    /** A script for a hostile owner, made from the planned batch. */
    interface Script {
        Consumer<Connection> of(PlannedBatch plan);
    }

    /** What a test does with a batch planned from a small utf8 array in a shared arena. */
    interface PlanUse {
        void run(PlannedBatch plan) throws Exception;
    }

    /** {@return the refusal of {@link #refusedScript(Script, ErrorCode, int)} reading up to 4 batches} */
    static ShareException refusedScript(Script script, ErrorCode expected) throws Exception {
        return refusedScript(script, expected, 4);
    }

    /**
     * Runs {@code script} as the owner and reads up to {@code batches} batches, closing each.
     *
     * @return the receiver's refusal, after checking that the owner was sent ERROR {@code expected}
     */
    static ShareException refusedScript(Script script, ErrorCode expected, int batches) throws Exception {
        ShareException[] refused = new ShareException[1];
        withPlannedBatch(plan -> {
            try (HostileOwner owner = new HostileOwner(WELCOME, SCHEMA, script.of(plan))) {
                try (ShareClient client = ShareClient.connect(owner.socket(), Devices.system().cpu(), PATIENT)) {
                    ShareException e = null;
                    for (int i = 0; i < batches && e == null; i++) {
                        try {
                            client.next().ifPresent(batch -> batch.array().close());
                        } catch (ShareException thrown) {
                            e = thrown;
                        }
                    }
                    refused[0] = e;
                }
                assertToldWhy(owner, expected);
            }
        });
        assertTrue(refused[0] != null, "the receiver refused");
        return refused[0];
    }

    /** {@return the refusal of the planned batch as {@code tamper} changed it, after checking the owner was sent ERROR {@code expected}} */
    static ShareException refusedBatch(UnaryOperator<BatchMessage> tamper, ErrorCode expected) throws Exception {
        ShareException[] refused = new ShareException[1];
        withPlannedBatch(plan -> {
            BatchMessage tampered = tamper.apply(plan.message(1, FIRST_USE));
            try (HostileOwner owner = new HostileOwner(WELCOME, SCHEMA, c -> c.send(MessageType.BATCH, tampered.encode(), plan.fds(FIRST_USE)))) {
                refused[0] = receiveFrom(owner);
                assertToldWhy(owner, expected);
            }
        });
        return refused[0];
    }

    /** Checks that the owner was sent ERROR {@code expected}. */
    static void assertToldWhy(HostileOwner owner, ErrorCode expected) throws Exception {
        ErrorMessage sent = owner.errorSent();
        assertNotNull(sent, "the owner was sent an ERROR");
        assertEquals(expected, sent.code(), sent.reason());
    }

    static void withPlannedBatch(PlanUse use) throws Exception {
        try (SharedHostArena arena = SharedHostArena.create(4096);
             DeviceArray built = HostVector.utf8("s", "abc", null).toDeviceArray();
             DeviceArray placed = arena.copyOf(built)) {
            PlannedBatch plan = PlannedBatch.of(placed);
            try (AutoCloseable hold = plan.hold()) {
                use.run(plan);
            }
        }
    }

    static ShareException receiveFrom(HostileOwner owner) {
        try (ShareClient client = ShareClient.connect(owner.socket(), Devices.system().cpu(), PATIENT)) {
            return assertThrows(ShareException.class, client::next);
        }
    }

    static BatchMessage withBuffer(BatchMessage batch, int index, int node, BatchMessage.Buffer buffer) {
        List<BatchMessage.Node> nodes = new ArrayList<>(batch.nodes());
        BatchMessage.Node old = nodes.get(node);
        List<BatchMessage.Buffer> buffers = new ArrayList<>(old.buffers());
        buffers.set(index, buffer);
        nodes.set(node, new BatchMessage.Node(old.length(), old.nullCount(), old.offset(), buffers, old.childCount(), old.hasDictionary()));
        return new BatchMessage(batch.batchId(), batch.copied(), batch.handles(), batch.eventKind(), batch.eventPayload(), nodes);
    }
}
