package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.types.TypeCatalogue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A sample of every Arrow type (the API's catalogue, with nulls, nesting, dictionaries, views, unions and run-end
 * encoding) goes through the protocol whole and sliced, shared from an arena and copied, and reads the same on
 * the receiving side. Both ends run in this JVM here; the two-process tests use the same code.
 */
class EveryTypeSharedTest {

    static List<TypeCatalogue.Sample> samples() {
        return TypeCatalogue.all();
    }

    @ParameterizedTest
    @MethodSource("samples")
    void everyTypeReadsTheSameAfterTheHandoff(TypeCatalogue.Sample sample) throws Exception {
        try (DeviceArray built = sample.vector().toDeviceArray();
             SharedHostArena arena = SharedHostArena.create(1 << 16);
             DeviceArray placed = arena.copyOf(built);
             DeviceArray slice = placed.slice(1, placed.length() - 1);
             ShareServer server = ShareServer.bindPrivate()) {
            assertEquals(Batches.describe(built), Batches.describe(placed), "the arena's copy");
            CompletableFuture<Void> owner = CompletableFuture.runAsync(() -> {
                try (ShareSession session = server.accept()) {
                    session.send(placed);
                    session.send(built);
                    session.send(slice);
                    session.end();
                    session.awaitReleased(java.time.Duration.ofSeconds(30));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            try (ShareClient client = ShareClient.connect(server.path())) {
                assertEquals(built.field(), client.schema());
                ReceivedBatch shared = client.next().orElseThrow();
                ReceivedBatch copied = client.next().orElseThrow();
                ReceivedBatch sliced = client.next().orElseThrow();
                try (DeviceArray a = shared.array(); DeviceArray b = copied.array(); DeviceArray c = sliced.array()) {
                    assertTrue(shared.isZeroCopy());
                    boolean noMemory = built.field().type() instanceof dev.quiver.type.ArrowType.Null;
                    assertEquals(noMemory, copied.isZeroCopy(), "an array outside shared memory is copied, unless it has no memory at all");
                    assertTrue(sliced.isZeroCopy());
                    assertEquals(Batches.describe(built), Batches.describe(a));
                    assertEquals(Batches.describe(built), Batches.describe(b));
                    assertEquals(Batches.describe(slice), Batches.describe(c));
                }
                assertFalse(client.next().isPresent());
            }
            owner.get(60, TimeUnit.SECONDS);
        }
        assertEquals(0, ShareStatistics.openRegions());
        assertEquals(0, ShareStatistics.mappedRegions());
    }
}
