package dev.quiver.share.internal.arrays;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.host.ArrayReader;
import dev.quiver.share.ReceivedBatch;
import dev.quiver.share.ShareClient;
import dev.quiver.share.ShareServer;
import dev.quiver.share.ShareSession;
import dev.quiver.share.SharedHostArena;
import dev.quiver.types.TypeCatalogue;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The owner keeps its memory files mapped writable and may rewrite a batch after the receiver checked it. Here the
 * owner (in this JVM, sending from a {@link SharedHostArena}) overwrites every offset, view, variadic size, union
 * type id and offset, dictionary index and run end of a batch the receiver has already received and validated,
 * with bytes {@code 0x7F} (offsets and run ends of two billion, undeclared type ids, views into buffer
 * 2,139,062,143): the receiver still reads, copies and validates exactly the values it received, since what
 * addresses memory was copied out of the owner's reach before the check. Before that copy, the first read of a
 * rewritten string offset read two gigabytes past the mapping.
 */
class RewriteAfterCheckTest {

    static List<TypeCatalogue.Sample> addressing() {
        return TypeCatalogue.all().stream().filter(sample -> ContentChecks.needed(sample.vector().field())).toList();
    }

    @ParameterizedTest
    @MethodSource("addressing")
    void whatTheOwnerRewritesAfterTheCheckIsNotWhatTheReceiverReads(TypeCatalogue.Sample sample) throws Exception {
        try (DeviceArray built = sample.vector().toDeviceArray();
             SharedHostArena arena = SharedHostArena.create(1 << 16);
             DeviceArray placed = arena.copyOf(built);
             ShareServer server = ShareServer.bindPrivate()) {
            String expected = describe(built);
            CountDownLatch rewrite = new CountDownLatch(1);
            CompletableFuture<Long> rewritten = new CompletableFuture<>();
            CompletableFuture<Boolean> owner = CompletableFuture.supplyAsync(() -> {
                try (ShareSession session = server.accept()) {
                    session.send(placed);
                    rewrite.await();
                    long bytes = rewriteAddressing(placed);
                    session.end();
                    rewritten.complete(bytes);
                    return session.awaitReleased(Duration.ofSeconds(30));
                } catch (InterruptedException | RuntimeException e) {
                    rewritten.completeExceptionally(e);
                    throw new IllegalStateException(e);
                }
            });
            try (ShareClient client = ShareClient.connect(server.path())) {
                ReceivedBatch received = client.next().orElseThrow();
                try (DeviceArray array = received.array()) {
                    assertTrue(received.isZeroCopy());
                    rewrite.countDown();
                    long bytes = rewritten.get(60, TimeUnit.SECONDS);
                    assertTrue(bytes > 0, "the owner rewrote nothing");
                    assertEquals(expected, describe(array), "read after the owner rewrote " + bytes + " bytes");
                    try (DeviceArray copy = Copies.toHost(array)) {
                        Interchange.validateFull(copy);
                        assertEquals(expected, describe(copy), "a copy made after the rewrite");
                    }
                    Interchange.validateFull(array);
                }
            }
            assertTrue(owner.get(60, TimeUnit.SECONDS), "the owner saw the batch released");
        }
    }

    private static String describe(DeviceArray array) {
        return ArrayReader.of(array).values().toString();
    }

    /** Overwrites, in the owner's memory, every buffer of {@code array} that addresses memory; returns the bytes. */
    private static long rewriteAddressing(DeviceArray array) {
        Iterator<ContentChecks.NodeContents> nodes = ContentChecks.nodes(array.field()).iterator();
        return rewrite(array, nodes);
    }

    private static long rewrite(DeviceArray node, Iterator<ContentChecks.NodeContents> contents) {
        ContentChecks.NodeContents kinds = contents.next();
        long bytes = 0;
        for (int i = 0; i < node.bufferCount(); i++) {
            MemorySegment pointer = node.buffer(i).pointer();
            long size = node.buffer(i).byteSize();
            if (kinds.addresses(i, node.bufferCount()) && !pointer.equals(MemorySegment.NULL) && size > 0) {
                pointer.reinterpret(size).fill((byte) 0x7F);
                bytes += size;
            }
        }
        for (int k = 0; k < node.childCount(); k++) {
            try (DeviceArray child = node.child(k)) {
                bytes += rewrite(child, contents);
            }
        }
        if (node.field().dictionary() != null) {
            try (DeviceArray dictionary = node.dictionary().orElseThrow()) {
                bytes += rewrite(dictionary, contents);
            }
        }
        return bytes;
    }
}
