package dev.quiver.testkit;

import dev.quiver.spi.IpcMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceCapability;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.TimeUnit;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;

/**
 * Inter-process memory checks of a backend ({@link IpcMemory#exportMemory} and
 * {@link IpcMemory#openMemory}) with a real second process: a child JVM that opens a handle this process
 * exported, reads bytes from the exported pointer, writes others over them, and closes what it opened.
 * {@link #checkRoundTrip} and {@link #checkBadHandles} run in the test; {@link #main} runs in the child,
 * which finds the device through the same provider class (made with its no-argument constructor and the
 * system properties the test passes, such as the test double's library path). Stateless; each round trip
 * starts and waits for its own child.
 */
public final class IpcPeer {
    private static final HexFormat HEX = HexFormat.of();
    private static final long TIMEOUT_SECONDS = 120;

    private IpcPeer() {}

    /**
     * Exports a pointer 1000 bytes into a 4096-byte allocation (given both as the allocation plus an offset and
     * as a pointer inside it, as a pool's sub-allocation is), lets a child process open it, and checks that
     * the child read this process's bytes at the offset and that this process sees the bytes the child wrote.
     *
     * @param device     the exporting device
     * @param provider   the provider class the child finds the same device with
     * @param properties system properties the child's provider needs (the test double's library path)
     * @throws AssertionError if a check fails
     */
    public static void checkRoundTrip(BackendDevice device, Class<? extends DeviceProvider> provider, Map<String, String> properties) {
        roundTrip(device, provider, properties, false);
    }

    /**
     * Like {@link #checkRoundTrip}, for a device whose pointers are opaque handles (Vulkan buffers), so that
     * offsets travel beside them: the pointer exported is the allocation itself with an offset of 1000, and
     * the child reads and writes at the handle's offset in the pointer it opened. A handle that is a file
     * descriptor reaches the child as {@link PosixFiles#procPath}, and this process closes its descriptor
     * once the child is done.
     *
     * @param device     the exporting device
     * @param provider   the provider class the child finds the same device with
     * @param properties system properties the child's provider needs
     * @throws AssertionError if a check fails
     */
    public static void checkRoundTripBesideHandle(BackendDevice device, Class<? extends DeviceProvider> provider,
                                                  Map<String, String> properties) {
        roundTrip(device, provider, properties, true);
    }

    private static void roundTrip(BackendDevice device, Class<? extends DeviceProvider> provider, Map<String, String> properties,
                                  boolean besideHandle) {
        int size = 4096;
        int offset = 1000;
        int count = 16;
        IpcMemory ipcMemory = required(device, IpcMemory.class);
        MemorySegment pointer = device.allocate(size, 256);
        MemorySegment stream = device.defaultStream();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment pattern = pattern(arena, size);
            device.copyFromHost(pattern, pointer, 0, stream);
            device.synchronizeStream(stream);

            IpcMemoryHandle handle = ipcMemory.exportMemory(pointer, offset);
            require(handle.mechanism() == ipcMemory.ipcMechanism(), "the handle's mechanism is the device's: " + handle);
            require(handle.offset() == offset, "the offset of the pointer in its allocation: " + handle);
            require(handle.allocationSize() >= size, "the allocation's size: " + handle);
            if (!besideHandle) {
                IpcMemoryHandle inside = ipcMemory.exportMemory(MemorySegment.ofAddress(pointer.address() + 512), offset - 512);
                require(inside.equals(handle), "a pointer inside the allocation names the same allocation and offset: "
                        + inside + " vs " + handle);
            }

            byte[] written = new byte[count];
            for (int i = 0; i < count; i++) {
                written[i] = (byte) (0x5A ^ i);
            }
            byte[] read;
            try {
                read = openInChild(provider, properties, device, handle, count, written, besideHandle);
            } finally {
                if (handle.fileDescriptor() >= 0) {
                    PosixFiles.close(handle.fileDescriptor());
                }
            }
            byte[] expected = pattern.asSlice(offset, count).toArray(JAVA_BYTE);
            require(java.util.Arrays.equals(read, expected), "the child read " + HEX.formatHex(read) + ", not "
                    + HEX.formatHex(expected));

            MemorySegment back = arena.allocate(count);
            device.copyToHost(pointer, offset, back, stream);
            device.synchronizeStream(stream);
            require(java.util.Arrays.equals(back.toArray(JAVA_BYTE), written), "this process sees the child's bytes: "
                    + HEX.formatHex(back.toArray(JAVA_BYTE)));
        } finally {
            device.free(pointer);
        }
    }

    /**
     * {@return {@code size} bytes of a pattern that repeats only every 256 bytes, so that a misplaced offset shows}
     * @param arena where the bytes live
     * @param size  how many
     */
    static MemorySegment pattern(Arena arena, int size) {
        MemorySegment pattern = arena.allocate(size);
        for (int i = 0; i < size; i++) {
            pattern.set(JAVA_BYTE, i, (byte) (i * 7 + 3));
        }
        return pattern;
    }

    /**
     * Checks that bad handles fail clearly: a handle of another mechanism, bytes that no driver made, and a
     * handle opened in the process that exported it (drivers refuse that).
     *
     * @param device   the device
     * @param openCall the vendor function that opens a handle, which the driver's errors must name
     * @throws AssertionError if a check fails
     */
    public static void checkBadHandles(BackendDevice device, String openCall) {
        IpcMemory ipcMemory = required(device, IpcMemory.class);
        IpcMechanism mechanism = ipcMemory.ipcMechanism();
        IpcMechanism other = mechanism == IpcMechanism.HIP_IPC ? IpcMechanism.CUDA_IPC : IpcMechanism.HIP_IPC;
        expectFailure(() -> ipcMemory.openMemory(new IpcMemoryHandle(other, new byte[64], -1, 0, 64)), IllegalArgumentException.class,
                mechanism.name(), ImportedMemory::close);
        byte[] noise = new byte[mechanism.handleBytes()];
        java.util.Arrays.fill(noise, (byte) 0x42);
        expectFailure(() -> ipcMemory.openMemory(new IpcMemoryHandle(mechanism, noise, -1, 0, 64)),
                dev.quiver.spi.DeviceException.class, openCall, ImportedMemory::close);
        MemorySegment pointer = device.allocate(64, 64);
        try {
            IpcMemoryHandle own = ipcMemory.exportMemory(pointer, 0);
            expectFailure(() -> ipcMemory.openMemory(own), dev.quiver.spi.DeviceException.class, openCall, ImportedMemory::close);
        } finally {
            device.free(pointer);
        }
    }

    /**
     * Checks that a handle whose allocation size overstates what the exporter allocated is refused where it is
     * opened, naming both sizes: a child process opens the real handle with its size raised by 4096 bytes, and must
     * fail rather than hand out memory it could read past the opened allocation.
     *
     * @param device     the exporting device
     * @param provider   the provider class the child finds the same device with
     * @param properties system properties the child's provider needs
     * @throws AssertionError if the child opened it, or failed for another reason
     */
    public static void checkOverstatedAllocationRefused(BackendDevice device, Class<? extends DeviceProvider> provider,
                                                        Map<String, String> properties) {
        IpcMemory ipcMemory = required(device, IpcMemory.class);
        MemorySegment pointer = device.allocate(4096, 64);
        try {
            IpcMemoryHandle real = ipcMemory.exportMemory(pointer, 0);
            IpcMemoryHandle lying = new IpcMemoryHandle(real.mechanism(), real.handle(), real.fileDescriptor(), real.offset(),
                    real.allocationSize() + 4096);
            AssertionError refused = null;
            try {
                openInChild(provider, properties, device, lying, 8, new byte[0]);
            } catch (AssertionError e) {
                refused = e;
            }
            require(refused != null, "the child opened a handle that overstates its allocation by 4096 bytes");
            require(refused.getMessage().contains("says its allocation holds " + lying.allocationSize() + " bytes, but the driver opened "
                    + real.allocationSize()), "the child's refusal names both sizes: " + refused.getMessage());
        } finally {
            device.free(pointer);
        }
    }

    /**
     * Expects an open to fail with an exception of {@code type} whose message names {@code named}; releases what it
     * opened if it did not fail, and fails the check.
     *
     * @param open    the open
     * @param type    the exception expected
     * @param named   what its message must contain
     * @param release releases what an open that did not fail returned
     * @param <T>     what the open returns
     */
    static <T> void expectFailure(java.util.function.Supplier<T> open, Class<? extends RuntimeException> type, String named,
                                  java.util.function.Consumer<T> release) {
        T opened;
        try {
            opened = open.get();
        } catch (RuntimeException e) {
            if (!type.isInstance(e) || e.getMessage() == null || !e.getMessage().contains(named)) {
                throw new AssertionError("expected " + type.getSimpleName() + " naming " + named + ", got " + e, e);
            }
            return;
        }
        release.accept(opened);
        throw new AssertionError("expected " + type.getSimpleName() + " naming " + named + ", but it opened " + opened);
    }

    /**
     * {@return the capability a check needs of the device}
     * @param device the device
     * @param kind   the capability's interface
     * @param <C>    the capability
     * @throws NoSuchElementException naming the device and the capability where the device does not offer it
     */
    static <C extends DeviceCapability> C required(BackendDevice device, Class<C> kind) {
        return device.capability(kind).orElseThrow(() -> new NoSuchElementException(device.name() + " offers no " + kind.getSimpleName()));
    }

    private static void require(boolean condition, String what) {
        if (!condition) {
            throw new AssertionError(what);
        }
    }

    /**
     * Starts a child JVM on this class path that opens {@code handle} on the device of the same type and id
     * that {@code provider} finds there, and waits for it.
     *
     * @param provider   the provider class
     * @param properties system properties for the child
     * @param device     the exporting device, whose type and id the child looks for
     * @param handle     the exported handle
     * @param readBytes  how many bytes the child reads at the exported pointer
     * @param write      what the child then writes at the exported pointer
     * @return the bytes the child read
     * @throws AssertionError if the child failed, with its output
     */
    public static byte[] openInChild(Class<? extends DeviceProvider> provider, Map<String, String> properties, BackendDevice device,
                                     IpcMemoryHandle handle, int readBytes, byte[] write) {
        return openInChild(provider, properties, device, handle, readBytes, write, false);
    }

    private static byte[] openInChild(Class<? extends DeviceProvider> provider, Map<String, String> properties, BackendDevice device,
                                      IpcMemoryHandle handle, int readBytes, byte[] write, boolean besideHandle) {
        List<String> command = PeerProcess.command(IpcPeer.class, provider, properties, device, List.of(
                handle.mechanism().name(), HEX.formatHex(handle.handle()), Long.toString(handle.offset()),
                Long.toString(handle.allocationSize()), Integer.toString(readBytes), HEX.formatHex(write),
                handle.fileDescriptor() >= 0 ? PosixFiles.procPath(handle.fileDescriptor()) : "-", Boolean.toString(besideHandle)));
        try {
            Process child = new ProcessBuilder(command).redirectErrorStream(true).start();
            child.getOutputStream().close();
            byte[] output = child.getInputStream().readAllBytes();
            if (!child.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                child.destroyForcibly();
                throw new AssertionError("the peer process did not finish in " + TIMEOUT_SECONDS + " s");
            }
            String text = new String(output, StandardCharsets.UTF_8);
            if (child.exitValue() != 0) {
                throw new AssertionError("the peer process failed (exit " + child.exitValue() + "):\n" + text);
            }
            String read = text.lines().filter(line -> line.startsWith("read ")).findFirst()
                    .orElseThrow(() -> new AssertionError("the peer process printed no bytes:\n" + text));
            return HEX.parseHex(read.substring("read ".length()).strip());
        } catch (IOException e) {
            throw new AssertionError("cannot start the peer process", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for the peer process", e);
        }
    }

    /**
     * The child's half: finds the device (provider class, device type and id are the first arguments), opens
     * the handle that follows, prints {@code read } and the hex of the bytes at the pointer, writes the given
     * bytes there, waits for the copies, and closes.
     *
     * @param arguments as {@link #openInChild} passes them
     * @throws ReflectiveOperationException if the provider cannot be made
     */
    public static void main(String[] arguments) throws ReflectiveOperationException {
        serve(PeerProcess.device(arguments), arguments, 3);
    }

    private static void serve(BackendDevice device, String[] arguments, int from) {
        String fdPath = arguments[from + 6];
        int fd = fdPath.equals("-") ? -1 : PosixFiles.open(fdPath);
        IpcMemoryHandle handle = new IpcMemoryHandle(IpcMechanism.valueOf(arguments[from]), HEX.parseHex(arguments[from + 1]),
                fd, Long.parseLong(arguments[from + 2]), Long.parseLong(arguments[from + 3]));
        int count = Integer.parseInt(arguments[from + 4]);
        byte[] write = HEX.parseHex(arguments[from + 5]);
        long at = Boolean.parseBoolean(arguments[from + 7]) ? handle.offset() : 0;
        MemorySegment stream = device.defaultStream();
        try (ImportedMemory memory = required(device, IpcMemory.class).openMemory(handle); Arena arena = Arena.ofConfined()) {
            MemorySegment read = arena.allocate(count);
            device.copyToHost(memory.pointer(), at, read, stream);
            device.synchronizeStream(stream);
            System.out.println("read " + HEX.formatHex(read.toArray(JAVA_BYTE)));
            device.copyFromHost(arena.allocateFrom(JAVA_BYTE, write), memory.pointer(), at, stream);
            device.synchronizeStream(stream);
        } finally {
            if (fd >= 0) {
                PosixFiles.close(fd);
            }
        }
    }
}
