package dev.quiver.share;

import dev.quiver.Copies;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.device.vulkan.NoValidationMessages;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A receiver of Vulkan arrays on lavapipe killed ({@code kill -9}) at a random moment mid-stream, a few times: the
 * owner reports it gone, lets go of every batch it held for it, and its device's memory pool holds no more bytes in
 * use than before the stream (every {@code VkDeviceMemory} exported as a descriptor is its own again, or freed).
 * {@link ShareFaultTest} runs the loop of 200 on host memory; a Vulkan child JVM takes about two seconds to start
 * here, so this loop runs 8 times ({@code quiver.share.vulkanFaultIterations}).
 */
@ExtendWith(NoValidationMessages.class)
class VulkanFaultTest {
    private static final int ITERATIONS = Integer.getInteger("quiver.share.vulkanFaultIterations", 8);
    @Test
    void killingAVulkanReceiverMidStreamLeavesTheOwnersPoolAsItWas() throws Exception {
        Device device = Lavapipe.device();
        Random random = new Random(6);
        for (int i = 0; i < ITERATIONS; i++) {
            device.memoryPool().trim();
            long inUseBefore = device.memoryPool().stats().bytesInUse();
            try (ShareServer server = ShareServer.bindPrivate().serve(device);
                 ChildJvm child = ChildJvm.startMain(DeviceShareChild.class, DeviceShareChild.LAVAPIPE, "-", server.path().toString());
                 ShareSession session = server.accept()) {
                CompletableFuture<ShareException> sender = CompletableFuture.supplyAsync(() -> sendUntilGone(session, device));
                child.lineStartingWith("BATCH ");
                Thread.sleep(random.nextInt(200));
                child.kill();
                ShareException gone = sender.get(60, TimeUnit.SECONDS);
                assertEquals(ShareException.Reason.PEER_GONE, gone.reason(), "iteration " + i + ": " + gone.getMessage());
                assertTrue(session.awaitReleased(Duration.ofSeconds(30)), "iteration " + i);
                assertEquals(0, session.outstanding(), "iteration " + i);
            }
            assertEquals(inUseBefore, device.memoryPool().stats().bytesInUse(), "iteration " + i + ": the pool holds what it held before");
        }
    }

    /** Sends tables of 300 rows on the device until the receiver is gone; returns how that was reported. */
    private static ShareException sendUntilGone(ShareSession session, Device device) {
        for (int b = 0; ; b++) {
            try (DeviceArray host = Batches.table(b, 300).toDeviceArray(Lavapipe.devices()); DeviceArray onDevice = Copies.toDevice(host, device)) {
                session.send(onDevice);
            } catch (ShareException e) {
                return e;
            }
        }
    }
}
