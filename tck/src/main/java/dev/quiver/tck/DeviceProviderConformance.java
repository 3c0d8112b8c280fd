package dev.quiver.tck;

import dev.quiver.Copies;
import dev.quiver.spi.DeviceEvents;
import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.plugin.Backends;
import dev.quiver.BackendSelection;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.ProviderReport;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ProbeResult;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.lang.foreign.Arena;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.nio.file.Path;
import java.util.Set;
import java.util.stream.Collectors;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The conformance suite for one {@link DeviceProvider}. Extend it and implement {@link #provider()}; every
 * test runs against every device the provider reports. The provider must probe as usable where the suite
 * runs: an unusable provider fails the suite, it is never skipped.
 *
 * <p>The suite uses only the SPI and the public API, so it proves a vendor's plugin exactly as it proves
 * Quiver's own. It compiles a small C consumer ({@code tck_relay.c}) with the system C compiler.
 *
 * <p>The tests of the {@link BackendDevice} methods (allocation, copies, streams, events) call the devices the
 * provider returned directly, so that no argument check of the API stands between the suite and a fault of
 * the backend. Each capability a device offers beyond the core ({@link dev.quiver.spi.DeviceCapability},
 * found with {@link BackendDevice#capability}) is checked where the device offers it ({@code CapabilityChecks}). The tests of native handles and adoption go through {@link Device} ({@code nativeHandles},
 * {@code adoptStream}, {@code adoptEvent}), as applications adopt, with the native streams and events made
 * by the devices the provider returned; the tests of arrays go through {@link Devices}, as applications do.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class DeviceProviderConformance {
    private static final long MIB = 1024 * 1024;

    private Devices devices;
    private List<Device> targets;
    private List<BackendDevice> backends;

    /** For subclasses, one per provider under test. */
    protected DeviceProviderConformance() {}

    /** {@return a new instance of the provider under test} */
    protected abstract DeviceProvider provider();

    /** Probes the provider once for the whole suite. */
    @BeforeAll
    void probe() {
        DeviceProvider provider = provider();
        ProbedProvider probed = new ProbedProvider(provider);
        devices = Backends.devices(List.of(probed), BackendSelection.all());
        ProviderReport report = devices.report().getFirst();
        if (report.status() != ProviderReport.Status.USABLE) {
            fail("provider " + provider.name() + " is " + report.status() + ": " + report.reasons()
                    + " (the conformance suite must run where the backend works)");
        }
        targets = report.devices();
        backends = ((ProbeResult.Available) probed.result()).devices();
    }

    /**
     * Waits for releases pending in stream order, checks that no pooled memory of the devices under test is
     * still in use (every test closed what it allocated), and gives every cached block back to the backend,
     * pinned host memory included: a subclass that counts the backend's live resources after the suite calls
     * this first.
     */
    protected final void releasePools() {
        try {
            assertTrue(Diagnostics.awaitStreamOrderReleases(java.time.Duration.ofSeconds(30)), "stream-order releases pending");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail(e);
        }
        for (Device device : targets) {
            assertEquals(0, device.memoryPool().stats().bytesInUse(), device + ": pooled memory left in use: " + device.memoryPool().stats());
            device.memoryPool().trim();
            device.pinnedHostPool().ifPresent(pool -> {
                assertEquals(0, pool.stats().bytesInUse(), device + ": pinned host memory left in use: " + pool.stats());
                pool.trim();
            });
        }
    }

    /** No test leaves pooled memory in use; the pools are trimmed after the suite. */
    @org.junit.jupiter.api.AfterAll
    void poolsHoldNothingInUse() {
        releasePools();
    }

    /** {@return the devices under test} */
    protected final List<Device> devices() {
        return targets;
    }

    /** @return the device itself, as the provider returned it, behind no check of the API */
    private BackendDevice backend(Device device) {
        return backends.stream()
                .filter(b -> b.deviceType() == device.type().code() && b.deviceId() == device.id())
                .findFirst().orElseThrow(() -> new AssertionError(device + " is not among the devices the provider returned"));
    }

    @Test
    void probeReportsDevicesOfTheDeclaredTypes() {
        DeviceProvider provider = provider();
        assertFalse(provider.name().isBlank(), "provider name");
        assertFalse(targets.isEmpty(), "a usable provider reports at least one device");
        List<Integer> declared = Arrays.stream(provider.deviceTypes()).boxed().toList();
        for (Device device : targets) {
            assertTrue(declared.contains(device.type().code()), device + " has a type the provider does not declare: " + declared);
            assertFalse(device.name().isBlank(), "device name");
            assertEquals(device.type().isHostAccessible() || device.isHostAccessible(), device.isHostAccessible(),
                    device + ": host accessibility contradicts its device type");
            if (device.type().equals(DeviceType.CPU)) {
                assertEquals(-1, device.id(), "CPU device_id is -1");
            }
        }
    }

    @Test
    void declaresTheProviderInModuleInfoAndServiceFile() throws Exception {
        Class<?> type = provider().getClass();
        Path location = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        ModuleDescriptor descriptor = ModuleFinder.of(location).findAll().stream().findFirst()
                .orElseThrow(() -> new AssertionError(location + " has no module-info.class"))
                .descriptor();
        Set<String> inModuleInfo = descriptor.provides().stream()
                .filter(p -> p.service().equals(DeviceProvider.class.getName()))
                .flatMap(p -> p.providers().stream()).collect(Collectors.toSet());
        Set<String> inServiceFile = ServiceFiles.providers(location, DeviceProvider.class.getName());
        assertTrue(inModuleInfo.contains(type.getName()), descriptor.name() + " module-info provides " + inModuleInfo);
        assertEquals(inModuleInfo, inServiceFile, "module-info provides and META-INF/services list the same providers");
    }

    @ParameterizedTest(name = "allocate and free {0} bytes")
    @ValueSource(longs = {0, 1, 4099, 64 * MIB})
    void allocatesAndFrees(long size) {
        for (Device device : targets) {
            BackendDevice backend = backend(device);
            MemorySegment pointer = backend.allocate(size, 64);
            try {
                if (size > 0) {
                    assertFalse(pointer.equals(MemorySegment.NULL), device + ": allocation of " + size + " returned NULL");
                }
                if (backend.hostAccessible() && size > 0) {
                    assertEquals(0, pointer.address() % 64, device + ": host-accessible memory is 64-byte aligned");
                    MemorySegment bytes = pointer.reinterpret(size);
                    bytes.set(JAVA_BYTE, 0, (byte) 1);
                    bytes.set(JAVA_BYTE, size - 1, (byte) 2);
                    assertEquals(2, bytes.get(JAVA_BYTE, size - 1));
                }
            } finally {
                backend.free(pointer);
            }
        }
    }

    @Test
    void poolReusesFreedBlocksAndTrimsThem() {
        targets.forEach(MemoryPoolChecks::reusesFreedBlocksAndTrimsThem);
    }

    @Test
    void poolKeepsWithinItsLimits() {
        targets.forEach(MemoryPoolChecks::keepsWithinItsLimits);
    }

    @Test
    void poolFreesInStreamOrder() {
        targets.forEach(MemoryPoolChecks::freesInStreamOrder);
    }

    @Test
    void poolTakesBlocksFromABroughtAllocator() {
        for (Device device : targets) {
            MemoryPoolChecks.takesBlocksFromABroughtAllocator(device, backend(device));
        }
    }

    @Test
    void pinnedHostMemoryCarriesDataBothWays() {
        for (Device device : targets) {
            MemoryPoolChecks.movesDataThroughPinnedHostMemory(device, backend(device), devices);
        }
    }

    /** Each capability a device offers follows its contract, on the device itself ({@link CapabilityChecks}). */
    @Test
    void offeredCapabilitiesFollowTheirContracts() {
        for (Device device : targets) {
            BackendDevice backend = backend(device);
            CapabilityChecks.pinnedHostMemory(backend);
            CapabilityChecks.ipcMemory(backend);
            CapabilityChecks.ipcEvents(backend);
            CapabilityChecks.nativeAdoption(backend);
        }
    }

    @Test
    void uploadsKeepTheirSourceAlive() {
        for (Device device : targets) {
            MemoryPoolChecks.uploadsKeepTheirSourceAlive(device, devices);
        }
    }

    @Test
    void copiesBothWaysAtOddOffsets() {
        for (Device device : targets) {
            BackendDevice backend = backend(device);
            MemorySegment stream = backend.defaultStream();
            long size = 4099;
            MemorySegment buffer = backend.allocate(size, 64);
            try (Arena arena = Arena.ofConfined()) {
                byte[] pattern = pattern((int) size - 3, 7);
                MemorySegment source = arena.allocate(pattern.length);
                MemorySegment.copy(pattern, 0, source, JAVA_BYTE, 0, pattern.length);
                backend.copyFromHost(source, buffer, 3, stream);
                MemorySegment back = arena.allocate(pattern.length - 4);
                backend.copyToHost(buffer, 7, back, stream);
                backend.synchronizeStream(stream);
                assertArrayEquals(Arrays.copyOfRange(pattern, 4, pattern.length), back.toArray(JAVA_BYTE),
                        device + ": bytes written at offset 3 read back from offset 7");
            } finally {
                backend.free(buffer);
            }
        }
    }

    @Test
    void copiesWithinTheDeviceAtOddOffsets() {
        for (Device device : targets) {
            BackendDevice backend = backend(device);
            MemorySegment stream = backend.defaultStream();
            MemorySegment first = backend.allocate(2001, 64);
            MemorySegment second = backend.allocate(2003, 64);
            try (Arena arena = Arena.ofConfined()) {
                byte[] pattern = pattern(2001, 11);
                MemorySegment source = arena.allocate(pattern.length);
                MemorySegment.copy(pattern, 0, source, JAVA_BYTE, 0, pattern.length);
                backend.copyFromHost(source, first, 0, stream);
                backend.copyWithinDevice(first, 5, second, 11, 1001, stream);
                MemorySegment back = arena.allocate(1001);
                backend.copyToHost(second, 11, back, stream);
                backend.synchronizeStream(stream);
                assertArrayEquals(Arrays.copyOfRange(pattern, 5, 1006), back.toArray(JAVA_BYTE), device + ": device-to-device copy");
            } finally {
                backend.free(first);
                backend.free(second);
            }
        }
    }

    @Test
    void streamsAreCreatedSynchronizedAndDestroyed() {
        for (Device device : targets) {
            BackendDevice backend = backend(device);
            MemorySegment stream = backend.createStream();
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment buffer = backend.allocate(64, 64);
                try {
                    MemorySegment host = arena.allocate(64).fill((byte) 42);
                    backend.copyFromHost(host, buffer, 0, stream);
                    MemorySegment back = arena.allocate(64);
                    backend.copyToHost(buffer, 0, back, stream);
                    backend.synchronizeStream(stream);
                    assertEquals(42, back.get(JAVA_BYTE, 63));
                } finally {
                    backend.free(buffer);
                }
            } finally {
                backend.destroyStream(stream);
            }
            backend.synchronizeStream(backend.defaultStream());
        }
    }

    @Test
    void eventsFollowTheContract() {
        for (Device device : targets) {
            CapabilityChecks.deviceEvents(backend(device));
        }
    }

    @Test
    void nativeHandlesAreNeverNullAndStable() {
        targets.forEach(AdoptionChecks::nativeHandlesAreStable);
    }

    @Test
    void adoptedStreamsCarryCopiesAndForgettingKeepsThemUsable() {
        targets.forEach(device -> AdoptionChecks.adoptedStreamsCarryCopies(device, backend(device)));
    }

    @Test
    void adoptedEventsFollowTheContract() {
        targets.forEach(device -> AdoptionChecks.adoptedEventsFollowTheContract(device, backend(device)));
    }

    @Test
    void exportsThroughCAndImportsBack() {
        HostVector batch = SampleData.batch(333, 20260101L);
        for (Device device : targets) {
            long exportsBefore = Diagnostics.liveExports();
            long failuresBefore = Diagnostics.callbackFailures();
            roundTrip(batch, device);
            roundTrip(batch.slice(17, 200), device);
            assertEquals(exportsBefore, Diagnostics.liveExports(), device + ": every exported struct was released");
            assertEquals(failuresBefore, Diagnostics.callbackFailures(), device + ": no failure inside a release callback");
        }
    }

    @Test
    void releaseRunsExactlyOnce() {
        HostVector batch = SampleData.batch(50, 7);
        for (Device device : targets) {
            try (Arena arena = Arena.ofConfined(); DeviceArray host = batch.toDeviceArray(devices)) {
                MemorySegment exported = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
                MemorySegment relayed = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
                MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
                Interchange.exportDevice(Copies.toDevice(host, device), exported, schema);
                long released = CRelay.released();
                CRelay.relay(exported, relayed, device.type().code(), device.id());
                DeviceArray imported = Interchange.importDevice(relayed, schema, ImportOptions.on(devices));
                assertEquals(MemorySegment.NULL, relayed.get(ADDRESS, 64), "import moves: the source is left released");
                assertEquals(released, CRelay.released(), "nothing released before close");
                CompletableFuture.runAsync(imported::close).join();
                assertEquals(released + 1, CRelay.released(), "close from another thread releases once");
                imported.close();
                assertEquals(released + 1, CRelay.released(), "a second close releases nothing");
                assertThrows(IllegalStateException.class, () -> Interchange.struct(imported), "use after close fails clearly");
            }
        }
    }

    @Test
    void twoThreadsExportImportAndCloseConcurrently() throws Exception {
        HostVector batch = SampleData.batch(64, 99);
        List<Object> expected = batch.values();
        int rounds = 200;
        for (Device device : targets) {
            long relayedBefore = CRelay.relayed();
            long releasedBefore = CRelay.released();
            long exportsBefore = Diagnostics.liveExports();
            CyclicBarrier start = new CyclicBarrier(2);
            ExecutorService pool = Executors.newFixedThreadPool(2);
            try {
                List<CompletableFuture<Void>> workers = new ArrayList<>();
                for (int t = 0; t < 2; t++) {
                    workers.add(CompletableFuture.runAsync(() -> {
                        await(start);
                        for (int i = 0; i < rounds; i++) {
                            try (Arena arena = Arena.ofConfined(); DeviceArray host = batch.toDeviceArray(devices)) {
                                MemorySegment exported = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
                                MemorySegment relayed = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
                                MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
                                Interchange.exportDevice(Copies.toDevice(host, device), exported, schema);
                                CRelay.relay(exported, relayed, device.type().code(), device.id());
                                try (DeviceArray imported = Interchange.importDevice(relayed, schema, ImportOptions.on(devices));
                                     DeviceArray back = Copies.toHost(imported)) {
                                    if (i % 50 == 0) {
                                        assertEquals(expected, ArrayReader.of(back).values());
                                    } else {
                                        assertEquals(expected.size(), back.length());
                                    }
                                }
                            }
                        }
                    }, pool));
                }
                CompletableFuture.allOf(workers.toArray(CompletableFuture[]::new)).get(5, TimeUnit.MINUTES);
            } finally {
                pool.shutdownNow();
            }
            assertEquals(2L * rounds, CRelay.relayed() - relayedBefore, device + ": arrays relayed through C");
            assertEquals(2L * rounds, CRelay.released() - releasedBefore, device + ": each released exactly once");
            assertEquals(exportsBefore, Diagnostics.liveExports(), device + ": no exported struct left unreleased");
        }
    }

    private void roundTrip(HostVector batch, Device device) {
        try (Arena arena = Arena.ofConfined(); DeviceArray host = batch.toDeviceArray(devices)) {
            MemorySegment exported = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment relayed = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            MemorySegment relayedSchema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            DeviceArray onDevice = Copies.toDevice(host, device);
            assertEquals(device.type(), onDevice.deviceType());
            assertEquals(backend(device).capability(DeviceEvents.class).isPresent(), onDevice.syncEvent().isPresent(),
                    device + ": a copy carries a sync event exactly when the device has events");
            Interchange.exportDevice(onDevice, exported, schema);
            assertTrue(onDevice.isClosed(), "export moves the array out");
            long released = CRelay.released();
            CRelay.relay(exported, relayed, device.type().code(), device.id());
            CRelay.moveSchema(schema, relayedSchema);
            try (DeviceArray imported = Interchange.importDevice(relayed, relayedSchema, ImportOptions.on(devices))) {
                assertEquals(device.type(), imported.deviceType());
                assertEquals(device.id(), imported.deviceId());
                assertEquals(batch.field(), imported.field());
                try (DeviceArray back = Copies.toHost(imported)) {
                    assertEquals(batch.values(), ArrayReader.of(back).values(), device + ": values after the round trip");
                }
            }
            assertEquals(released + 1, CRelay.released(), device + ": C saw exactly one release");
        }
    }

    private static byte[] pattern(int size, int seed) {
        byte[] bytes = new byte[size];
        for (int i = 0; i < size; i++) {
            bytes[i] = (byte) (i * 31 + seed);
        }
        return bytes;
    }

    private static void await(CyclicBarrier barrier) {
        try {
            barrier.await(1, TimeUnit.MINUTES);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
