package dev.quiver.testkit;

import dev.quiver.spi.DeviceEvents;
import dev.quiver.spi.EventWaits;
import dev.quiver.spi.IpcEvents;
import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcEventHandle;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Inter-process event checks of a backend ({@link IpcEvents#recordInterProcessEvent},
 * {@link IpcEvents#exportEvent}, {@link IpcEvents#openEvent}) with a real second process: this process
 * writes bytes into device memory on a stream and records an inter-process event after the copy, without
 * waiting; a child JVM opens the memory and the event, makes its own stream wait for the event, copies the bytes
 * back after that wait, and must read what this process wrote. {@link #checkEventOrdersPeerWork} and
 * {@link #checkBadEventHandles} run in the test; {@link #main} runs in the child. Stateless; each check starts and
 * waits for its own child.
 */
public final class IpcEventPeer {
    private static final HexFormat HEX = HexFormat.of();
    private static final long TIMEOUT_SECONDS = 120;
    private static final int SIZE = 4096;
    private static final int COUNT = 64;
    /** How long this process holds its work back after the child enqueued its wait. */
    private static final long HOLD_MILLIS = 500;

    private IpcEventPeer() {}

    /**
     * Functions {@code long f(void)} of a device's vendor library that count what is live in that process, as
     * test doubles have them, so that a check can tell that everything it made, opened or recorded was released
     * exactly once, in this process and in the child.
     *
     * @param events      counts live events
     * @param allocations counts live allocations
     * @param streams     counts live streams
     */
    public record LiveCounters(String events, String allocations, String streams) {
        /** The counters of Quiver's test doubles of the vendor libraries. */
        public static final LiveCounters TEST_DOUBLE =
                new LiveCounters("test_double_live_events", "test_double_live_allocations", "test_double_live_streams");

        /** Checks that every name is given. */
        public LiveCounters {
            java.util.Objects.requireNonNull(events, "events");
            java.util.Objects.requireNonNull(allocations, "allocations");
            java.util.Objects.requireNonNull(streams, "streams");
        }
    }

    /**
     * Copies 4096 bytes to device memory on a new stream, records an inter-process event on that stream, exports
     * the memory and the event, and lets a child process open both, wait for the event on a stream of its own,
     * copy the first 64 bytes back on that stream, and destroy what it opened. This process waits for its own
     * stream only once the child has enqueued its wait, so that on a device that runs work when it is waited for
     * the child's copy is right only if its wait held it back. Checks the bytes the child read, that the event was
     * complete for the child after its wait, and, where counters are given, that the child's opened event was
     * live while open and destroyed once and that this process released every event, stream and allocation.
     *
     * @param device           the exporting device; it must offer {@link dev.quiver.spi.IpcEvents}
     * @param provider         the provider class the child finds the same device with
     * @param properties       system properties the child's provider needs (the test double's library path)
     * @param counters         the vendor library's counters of what is live, read in both processes; null where it
     *                         has none
     * @return whether the event was complete when the child opened it, before this process waited for its own
     *         stream: false on a test double that runs work only when it is waited for, either on hardware
     * @throws AssertionError if a check fails
     */
    public static boolean checkEventOrdersPeerWork(BackendDevice device, Class<? extends DeviceProvider> provider,
                                                   Map<String, String> properties, LiveCounters counters) {
        IpcEvents ipcEvents = device.capability(IpcEvents.class)
                .orElseThrow(() -> new AssertionError(device.name() + " says its events do not reach other processes"));
        IpcMemory ipcMemory = IpcPeer.required(device, IpcMemory.class);
        DeviceEvents events = IpcPeer.required(device, DeviceEvents.class);
        long[] live = live(device, counters);
        boolean completeWhenOpened;
        MemorySegment pointer = device.allocate(SIZE, 256);
        MemorySegment stream = device.createStream();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pattern = IpcPeer.pattern(arena, SIZE);
            device.copyFromHost(pattern, pointer, 0, stream);
            MemorySegment event = ipcEvents.recordInterProcessEvent(stream);
            try {
                IpcEventHandle handle = ipcEvents.exportEvent(event);
                require(handle.mechanism() == ipcMemory.ipcMechanism(), "the event handle's mechanism is the device's: " + handle);
                IpcMemoryHandle memory = ipcMemory.exportMemory(pointer, 0);
                List<String> lines = runChild(device, provider, properties, memory, handle,
                        counters == null ? "-" : counters.events(), stream);
                byte[] read = HEX.parseHex(field(lines, "read "));
                byte[] expected = pattern.asSlice(0, COUNT).toArray(JAVA_BYTE);
                require(Arrays.equals(read, expected), "the child's copy after its wait read " + HEX.formatHex(read)
                        + ", not what this process wrote before recording the event: " + HEX.formatHex(expected));
                require(field(lines, "after ").equals("complete"), "the event is complete for the child after its wait: " + lines);
                String child = field(lines, "live ");
                long[] counts = Arrays.stream(child.split(" ")).mapToLong(Long::parseLong).toArray();
                require(counters == null || (counts.length == 3 && counts[1] == counts[0] + 1 && counts[2] == counts[0]),
                        "the child's opened event is live while open and destroyed once (before, open, after): " + child);
                completeWhenOpened = field(lines, "opened ").equals("complete");
            } finally {
                events.destroyEvent(event);
            }
        } finally {
            device.destroyStream(stream);
            device.free(pointer);
        }
        requireSame(live, live(device, counters));
        return completeWhenOpened;
    }

    /**
     * {@return the events, allocations and streams the counters report live, after the device released what it
     * keeps for reuse; empty where there are no counters}
     */
    private static long[] live(BackendDevice device, LiveCounters counters) {
        if (counters == null) {
            return new long[0];
        }
        device.releaseCaches();
        return new long[] {count(device, counters.events()), count(device, counters.allocations()), count(device, counters.streams())};
    }

    private static void requireSame(long[] before, long[] after) {
        require(Arrays.equals(before, after), "live events, allocations and streams were " + Arrays.toString(before)
                + " before and " + Arrays.toString(after) + " after: something was not released exactly once");
    }

    /** {@return what the vendor library's counter {@code symbol} reports, or -1 where it is {@code -}} */
    private static long count(BackendDevice device, String symbol) {
        if (symbol.equals("-")) {
            return -1;
        }
        MemorySegment function = device.vendorLibrary().orElseThrow().lookup().find(symbol)
                .orElseThrow(() -> new AssertionError("the vendor library of " + device.name() + " has no " + symbol));
        try {
            return (long) Linker.nativeLinker().downcallHandle(function, FunctionDescriptor.of(JAVA_LONG)).invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(symbol + " failed", t);
        }
    }

    /**
     * Checks that bad event handles fail clearly, each before anything is left open: a handle of another
     * mechanism (refused before any driver call), bytes that no driver made, a handle opened in the process that
     * exported it, and the export of an ordinary event (one not made for sharing).
     *
     * @param device           the device; it must offer {@link dev.quiver.spi.IpcEvents}
     * @param openCall         the vendor function that opens a handle, which the driver's errors must name
     * @param exportCall       the vendor function that exports an event, which the driver's error must name
     * @param counters         the vendor library's counters of what is live, which must be the same after the
     *                         checks as before; null where it has none
     * @throws AssertionError if a check fails
     */
    public static void checkBadEventHandles(BackendDevice device, String openCall, String exportCall, LiveCounters counters) {
        long[] live = live(device, counters);
        IpcMechanism mechanism = IpcPeer.required(device, IpcMemory.class).ipcMechanism();
        IpcEvents ipcEvents = IpcPeer.required(device, IpcEvents.class);
        DeviceEvents events = IpcPeer.required(device, DeviceEvents.class);
        IpcMechanism other = mechanism == IpcMechanism.HIP_IPC ? IpcMechanism.CUDA_IPC : IpcMechanism.HIP_IPC;
        IpcPeer.expectFailure(() -> ipcEvents.openEvent(new IpcEventHandle(other, new byte[other.eventHandleBytes()])),
                IllegalArgumentException.class, mechanism.name(), events::destroyEvent);
        byte[] noise = new byte[mechanism.eventHandleBytes()];
        Arrays.fill(noise, (byte) 0x42);
        IpcPeer.expectFailure(() -> ipcEvents.openEvent(new IpcEventHandle(mechanism, noise)), DeviceException.class, openCall,
                events::destroyEvent);
        MemorySegment shared = ipcEvents.recordInterProcessEvent(device.defaultStream());
        try {
            IpcEventHandle own = ipcEvents.exportEvent(shared);
            IpcPeer.expectFailure(() -> ipcEvents.openEvent(own), DeviceException.class, openCall, events::destroyEvent);
        } finally {
            events.destroyEvent(shared);
        }
        MemorySegment ordinary = events.recordNewEvent(device.defaultStream());
        try {
            ipcEvents.exportEvent(ordinary);
            throw new AssertionError("an event not made for sharing was exported");
        } catch (DeviceException e) {
            require(e.getMessage() != null && e.getMessage().contains(exportCall), "the refusal names " + exportCall + ": " + e);
        } finally {
            events.destroyEvent(ordinary);
        }
        requireSame(live, live(device, counters));
    }


    /**
     * Runs the child: once it has enqueued its wait and copy, holds this process's work back for
     * {@link #HOLD_MILLIS} (a child whose wait did not hold finishes its copy meanwhile, and reads bytes this
     * process has not written yet), then waits for this process's stream, then for the child.
     *
     * @return the child's output lines
     */
    private static List<String> runChild(BackendDevice device, Class<? extends DeviceProvider> provider, Map<String, String> properties,
                                         IpcMemoryHandle memory, IpcEventHandle event, String eventCounter, MemorySegment stream) {
        List<String> command = PeerProcess.command(IpcEventPeer.class, provider, properties, device, List.of(
                memory.mechanism().name(), HEX.formatHex(memory.handle()), Long.toString(memory.allocationSize()),
                HEX.formatHex(event.handle()), eventCounter));
        Process child;
        try {
            child = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new AssertionError("cannot start the peer process", e);
        }
        BlockingQueue<Optional<String>> output = new LinkedBlockingQueue<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                reader.lines().forEach(line -> output.add(Optional.of(line)));
            } catch (IOException | java.io.UncheckedIOException e) {
                output.add(Optional.of("cannot read the peer process: " + e));
            } finally {
                output.add(Optional.empty());
            }
        });
        List<String> lines = new ArrayList<>();
        try {
            child.getOutputStream().close();
            boolean released = false;
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_SECONDS);
            while (true) {
                boolean holding = !released && !lines.isEmpty() && lines.getLast().startsWith("opened ");
                Optional<String> line = output.poll(holding ? HOLD_MILLIS : Math.max(1, deadline - System.nanoTime()) / 1_000_000,
                        TimeUnit.MILLISECONDS);
                if (holding) {
                    device.synchronizeStream(stream);   // the child's wait is enqueued: let this process's work complete
                    released = true;
                }
                if (line == null && !holding) {
                    throw new AssertionError("the peer process did not finish in " + TIMEOUT_SECONDS + " s:\n" + String.join("\n", lines));
                }
                if (line != null && line.isEmpty()) {
                    break;
                }
                if (line != null) {
                    lines.add(line.get());
                }
            }
            if (!child.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the peer process did not exit in " + TIMEOUT_SECONDS + " s");
            }
        } catch (IOException e) {
            throw new AssertionError("cannot write to the peer process", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the peer process", e);
        } finally {
            if (child.isAlive()) {
                child.destroyForcibly();
            }
        }
        if (child.exitValue() != 0) {
            throw new AssertionError("the peer process failed (exit " + child.exitValue() + "):\n" + String.join("\n", lines));
        }
        return lines;
    }

    private static String field(List<String> lines, String prefix) {
        return lines.stream().filter(line -> line.startsWith(prefix)).findFirst().map(line -> line.substring(prefix.length()).strip())
                .orElseThrow(() -> new AssertionError("the peer process printed no '" + prefix.strip() + "' line:\n"
                        + String.join("\n", lines)));
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    /**
     * The child's half: finds the device (provider class, device type and id are the first arguments), opens the
     * memory and the event, enqueues on a new stream a wait for the event and a copy of the first 64 bytes,
     * prints {@code opened } and whether the event was complete, waits for the stream, prints {@code read } and
     * the hex of the bytes, waits for the event and prints {@code after } and whether it is complete, destroys the
     * stream and the event, closes the memory, and prints {@code live } and the live events before it opened the
     * event, while open and after (each -1 where no counter is named).
     *
     * @param arguments as {@link #checkEventOrdersPeerWork} passes them
     * @throws ReflectiveOperationException if the provider cannot be made, which fails the check with the child's
     *                                      output, as any other failure here does
     */
    public static void main(String[] arguments) throws ReflectiveOperationException {
        BackendDevice device = PeerProcess.device(arguments);
        IpcMemory ipcMemory = IpcPeer.required(device, IpcMemory.class);
        IpcEvents ipcEvents = IpcPeer.required(device, IpcEvents.class);
        EventWaits waits = IpcPeer.required(device, EventWaits.class);
        DeviceEvents events = IpcPeer.required(device, DeviceEvents.class);
        IpcMemoryHandle memoryHandle = new IpcMemoryHandle(IpcMechanism.valueOf(arguments[3]), HEX.parseHex(arguments[4]), -1, 0,
                Long.parseLong(arguments[5]));
        IpcEventHandle eventHandle = new IpcEventHandle(ipcMemory.ipcMechanism(), HEX.parseHex(arguments[6]));
        long before = count(device, arguments[7]);
        long open;
        try (ImportedMemory memory = ipcMemory.openMemory(memoryHandle); Arena arena = Arena.ofConfined()) {
            MemorySegment event = ipcEvents.openEvent(eventHandle);
            MemorySegment stream = device.createStream();
            try {
                open = count(device, arguments[7]);
                boolean complete = waits.isEventComplete(event);
                MemorySegment read = arena.allocate(COUNT);
                waits.streamWaitEvent(stream, event);
                device.copyToHost(memory.pointer(), 0, read, stream);
                System.out.println("opened " + (complete ? "complete" : "pending"));
                System.out.flush();
                device.synchronizeStream(stream);
                System.out.println("read " + HEX.formatHex(read.toArray(JAVA_BYTE)));
                waits.waitEvent(event);
                System.out.println("after " + (waits.isEventComplete(event) ? "complete" : "pending"));
            } finally {
                device.destroyStream(stream);
                events.destroyEvent(event);
            }
        }
        System.out.println("live " + before + " " + open + " " + count(device, arguments[7]));
    }
}
