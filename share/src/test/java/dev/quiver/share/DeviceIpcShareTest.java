package dev.quiver.share;

import dev.quiver.Copies;
import dev.quiver.spi.IpcEvents;
import dev.quiver.spi.IpcMemory;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.Devices;
import dev.quiver.host.HostVector;
import dev.quiver.plugin.Backends;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.Handshake;
import dev.quiver.share.internal.protocol.MessageType;
import dev.quiver.spi.IpcMemoryHandle;
import dev.quiver.type.Field;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Device arrays handed to another process as the driver's IPC handles (docs/SHARING.md, "Device IPC handles"),
 * CUDA, HIP and Level Zero IPC: the owner in this JVM and the receiver in a {@link ChildJvm} ({@link DeviceShareChild}),
 * both on the same backend over the same test double of its driver ({@link TestDoubleDevices}), whose device
 * memory the child maps from the handle. Proves the sharing code's paths, not GPU hardware.
 */
class DeviceIpcShareTest {

    private static HostVector table(int seed, int rows) {
        Long[] ids = new Long[rows];
        String[] names = new String[rows];
        for (int i = 0; i < rows; i++) {
            ids[i] = i % 6 == 5 ? null : (long) seed * 1_000_000_007L + i;
            names[i] = i % 7 == 3 ? null : "row-" + seed + "-" + i + (i % 5 == 0 ? "-ü" : "");
        }
        return HostVector.struct("batch", HostVector.int64("id", ids), HostVector.utf8("name", names));
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void int64AndUtf8ColumnsOnTheDeviceTravelAsIpcHandlesAndTheirReleaseReachesTheOwner(TestDoubleDevices backend) throws Exception {
        Path library = backend.library();
        Devices devices = backend.devices(library);
        Device device = backend.device(library);
        try (ShareServer server = ShareServer.bindPrivate().serve(device);
             ChildJvm child = ChildJvm.startMain(DeviceShareChild.class, backend.name(), library.toString(), server.path().toString());
             ShareSession session = server.accept()) {
            ZeroCopyHandoff.sendThree(session, child, devices, device, seed -> table(seed, 200 + seed));
            assertEquals(0, child.waitFor(), child.errors());
            assertTrue(session.awaitReleased(Duration.ofSeconds(30)), "every RELEASED reached the owner");
            assertEquals(0, session.outstanding());
        }
        assertEquals(0, ShareStatistics.outstandingBatches());
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void anArraysSyncEventTravelsWhereTheDriverSharesEventsAndTheReceiverWaitsOnItNotTheOwner(TestDoubleDevices backend) throws Exception {
        Path library = backend.library();
        Devices devices = backend.devices(library);
        Device device = backend.device(library);
        boolean sharesEvents = Backends.of(device).capability(IpcEvents.class).isPresent();
        assertEquals(backend != TestDoubleDevices.LEVEL_ZERO, sharesEvents, "CUDA and HIP share events; Level Zero does not yet");
        assertEquals(sharesEvents, device.interProcessMemory().events(), "what `quiver devices` says of the device's events");
        long eventsBefore = liveEvents(device);
        HostVector ids = HostVector.struct("batch", HostVector.int64("id", 5L, null, -7L, 1L << 40));   // no offsets: nothing read back
        try (ShareServer server = ShareServer.bindPrivate().serve(device);
             ChildJvm child = ChildJvm.startMain(DeviceShareChild.class, backend.name(), library.toString(), server.path().toString());
             ShareSession session = server.accept();
             dev.quiver.DeviceStream stream = device.createStream();
             DeviceArray host = ids.toDeviceArray(devices);
             DeviceArray onDevice = Copies.toDevice(host, device, stream)) {
            if (sharesEvents) {
                assertTrue(onDevice.syncEvent().isPresent(), "the upload is in flight: the array carries its event");
            }
            session.send(onDevice);   // the test double runs the upload only once this process waits for it
            session.end();
            if (sharesEvents) {
                Thread.sleep(300);   // the child is waiting on the event by now, or will be
                // what a device does on its own, the test double does when waited for: the upload, then the default
                // stream, where the owner recorded the event it shared after the upload's
                onDevice.syncEvent().orElseThrow().waitOnHost();
                device.defaultStream().synchronize();
            }
            String[] line = child.lineStartingWith("BATCH ").split(" ");
            assertEquals("zero-copy", line[1]);
            assertEquals(Batches.digest(host), line[3], "the child read the uploaded values, after the owner's work");
            assertEquals(sharesEvents ? "event" : "no-event", line[4], "the array arrived with the owner's event where events travel");
            assertEquals("END", child.line());
            assertEquals(0, child.waitFor(), child.errors());
            assertTrue(session.awaitReleased(Duration.ofSeconds(30)));
        }
        assertEquals(eventsBefore, liveEvents(device), "the inter-process event was destroyed once the batch was released");
    }

    private static long liveEvents(Device device) {
        dev.quiver.spi.BackendDevice backend = Backends.of(device);
        backend.releaseCaches();
        java.lang.foreign.MemorySegment counter = backend.vendorLibrary().orElseThrow().lookup().find("test_double_live_events").orElseThrow();
        try {
            return (long) java.lang.foreign.Linker.nativeLinker().downcallHandle(counter,
                    java.lang.foreign.FunctionDescriptor.of(java.lang.foreign.ValueLayout.JAVA_LONG)).invokeExact();
        } catch (Throwable t) {
            throw new AssertionError("test_double_live_events failed", t);
        }
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void aDeviceArrayForAReceiverOfTheCpuIsCopiedToHostMemoryAndTheReceiverIsToldSo(TestDoubleDevices backend) throws Exception {
        Devices devices = backend.devices(backend.library());
        Device device = backend.device(backend.library());
        try (ShareServer server = ShareServer.bindPrivate().serve(device);
             ChildJvm child = ChildJvm.start("receive", server.path().toString());
             ShareSession session = server.accept();
             DeviceArray host = table(7, 100).toDeviceArray(devices);
             DeviceArray onDevice = Copies.toDevice(host, device)) {
            TwoProcessShareTest.sendOneCopied(session, child, onDevice, Batches.digest(host));
        }
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void aHandleWhoseBytesNoDriverMadeIsRefusedNamingTheDriverCall(TestDoubleDevices backend) throws Exception {
        byte[] forged = new byte[64];
        Arrays.fill(forged, (byte) 0x5a);
        String refusal = refused(backend, allocation -> new BatchMessage.Handle(backend.kind(), allocation.allocationSize(), 1, true, forged),
                8, ErrorCode.PROTOCOL);
        assertTrue(refusal.contains("handles[0]: the device refused the " + backend.kind() + " handle")
                && refusal.contains(backend.openCall()), refusal);
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void aBufferPastTheAllocationIsRefusedNamingIt(TestDoubleDevices backend) throws Exception {
        long[] size = new long[1];
        String refusal = refused(backend, allocation -> {
            size[0] = allocation.allocationSize();
            return new BatchMessage.Handle(backend.kind(), allocation.allocationSize(), 1, true, allocation.handle());
        }, -1, ErrorCode.LIMIT);
        assertTrue(refusal.contains("nodes[0].buffers[1] at offset 0 for " + (size[0] + 8) + " bytes is past the " + size[0]
                + " bytes of handles[0]"), refusal);
    }

    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void aHandleOfTheWrongLengthIsRefused(TestDoubleDevices backend) throws Exception {
        String refusal = refused(backend, allocation -> new BatchMessage.Handle(backend.kind(), allocation.allocationSize(), 1, true,
                Arrays.copyOf(allocation.handle(), 60)), 8, ErrorCode.PROTOCOL);
        assertTrue(refusal.contains("handles[0] has a payload of 60 bytes"), refusal);
    }

    /**
     * Sends a child on {@code backend} one BATCH of an int64 array of 4 values whose data buffer lies in a real allocation of this
     * process, with the handle {@code forge} makes of its export and a data length of {@code dataLength} (-1: 8
     * bytes past the allocation), and returns the reason of the child's refusal, which must carry {@code code}.
     */
    @ParameterizedTest
    @EnumSource(TestDoubleDevices.class)
    void anEventWhoseBytesNoDriverMadeOrOfTheWrongLengthIsRefused(TestDoubleDevices backend) throws Exception {
        byte[] forged = new byte[64];
        Arrays.fill(forged, (byte) 0x5c);
        Function<IpcMemoryHandle, BatchMessage.Handle> honest = allocation -> new BatchMessage.Handle(backend.kind(),
                allocation.allocationSize(), 1, true, allocation.handle());
        String refusal = refused(backend, honest, 8, backend == TestDoubleDevices.LEVEL_ZERO ? ErrorCode.HANDLE_KIND : ErrorCode.PROTOCOL,
                backend.kind().wire(), forged);
        if (backend == TestDoubleDevices.LEVEL_ZERO) {
            assertTrue(refusal.contains("has an event of kind 5; this receiver of ") && refusal.contains("opens no events"), refusal);
        } else {
            assertTrue(refusal.contains("the device refused the " + backend.kind() + " event handle")
                    && refusal.contains(backend == TestDoubleDevices.CUDA ? "cuIpcOpenEventHandle" : "hipIpcOpenEventHandle"), refusal);
            String shortPayload = refused(backend, honest, 8, ErrorCode.PROTOCOL, backend.kind().wire(), Arrays.copyOf(forged, 56));
            assertTrue(shortPayload.contains("has an event payload of 56 bytes; a " + backend.kind() + " event handle is 64"), shortPayload);
        }
    }

    private static String refused(TestDoubleDevices backend, Function<IpcMemoryHandle, BatchMessage.Handle> forge, long dataLength,
                                  ErrorCode code) throws Exception {
        return refused(backend, forge, dataLength, code, 0, new byte[0]);
    }

    private static String refused(TestDoubleDevices backend, Function<IpcMemoryHandle, BatchMessage.Handle> forge, long dataLength,
                                  ErrorCode code, int eventKind, byte[] eventPayload) throws Exception {
        Path library = backend.library();
        Devices devices = backend.devices(library);
        Device device = backend.device(library);
        Field field;
        try (DeviceArray sample = table(0, 1).toDeviceArray(devices)) {
            field = sample.field().children().getFirst();
        }
        try (DeviceBuffer allocation = device.allocate(64)) {
            IpcMemoryHandle exported = Backends.of(device).capability(IpcMemory.class).orElseThrow().exportMemory(allocation.pointer(), 0);
            long length = dataLength < 0 ? exported.allocationSize() + 8 : dataLength;
            BatchMessage batch = new BatchMessage(1, false, List.of(forge.apply(exported)), eventKind, eventPayload,
                    List.of(new BatchMessage.Node(1, 0, 0, List.of(new BatchMessage.Buffer(BatchMessage.NO_HANDLE, 0, 0),
                            new BatchMessage.Buffer(0, exported.offset(), length)), 0, false)));
            try (HostileOwner owner = new HostileOwner(new Handshake.Welcome(2, DeviceNames.of(device), 1), field,
                    connection -> connection.send(MessageType.BATCH, batch.encode()));
                 ChildJvm child = ChildJvm.startMain(DeviceShareChild.class, backend.name(), library.toString(), owner.socket().toString())) {
                String line = child.lineStartingWith("ERROR ");
                assertEquals(3, child.waitFor(), child.errors());
                ErrorMessage sent = owner.errorSent();
                assertEquals(code, sent.code(), sent.reason());
                assertTrue(line.contains(sent.reason()), line);
                return sent.reason();
            }
        }
    }
}
