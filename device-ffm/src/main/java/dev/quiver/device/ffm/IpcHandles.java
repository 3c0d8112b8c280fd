package dev.quiver.device.ffm;

import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMechanism;
import dev.quiver.spi.IpcMemoryHandle;

import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The vendor-neutral half of inter-process memory for backends whose driver names an allocation by opaque
 * bytes ({@code CUipcMemHandle}, {@code hipIpcMemHandle_t}, {@code ze_ipc_mem_handle_t}): the handle's C
 * layout (a struct of one byte array, passed by value), the steps of exporting (find the allocation, name it,
 * keep the offset) and of opening (check the mechanism, open, add the offset), around the driver calls a
 * backend passes in. Stateless and thread-safe.
 */
public final class IpcHandles {
    private IpcHandles() {}

    /**
     * {@return the C struct of a driver's IPC handle: one array of {@code byteSize} bytes}
     * @param member   the array's name in the vendor header ({@code reserved}, {@code data})
     * @param byteSize the handle's size, for example 64
     */
    public static GroupLayout layout(String member, int byteSize) {
        return MemoryLayout.structLayout(MemoryLayout.sequenceLayout(byteSize, JAVA_BYTE).withName(member));
    }

    /** The driver call that finds the allocation holding an address ({@code cuMemGetAddressRange}, ...). */
    @FunctionalInterface
    public interface RangeCall {
        /**
         * Writes the allocation's start and size.
         *
         * @param address the address
         * @param base    where the start goes (8 bytes)
         * @param size    where the size goes (8 bytes)
         */
        void find(long address, MemorySegment base, MemorySegment size);
    }

    /** The driver call that writes an allocation's IPC handle ({@code cuIpcGetMemHandle}, ...). */
    @FunctionalInterface
    public interface HandleCall {
        /**
         * Writes the handle.
         *
         * @param base   the allocation's start
         * @param handle where the handle goes
         */
        void export(long base, MemorySegment handle);
    }

    /** The driver call that opens a peer's handle ({@code cuIpcOpenMemHandle}, ...). */
    @FunctionalInterface
    public interface OpenCall {
        /**
         * Opens the handle.
         *
         * @param handle  the handle's bytes, in native memory, of the mechanism's size
         * @param pointer where the opened allocation's start goes (8 bytes)
         */
        void open(MemorySegment handle, MemorySegment pointer);
    }

    /**
     * Exports the allocation holding an address: finds its start and size, asks the driver for its handle,
     * and keeps the address's offset from the start.
     *
     * @param mechanism the driver mechanism
     * @param layout    the handle's C struct
     * @param address   the exported address (pointer plus offset)
     * @param range     finds the allocation
     * @param handle    writes its handle
     * @return the handle with the address's offset in its allocation
     */
    public static IpcMemoryHandle export(IpcMechanism mechanism, GroupLayout layout, long address, RangeCall range, HandleCall handle) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment base = arena.allocate(JAVA_LONG);
            MemorySegment size = arena.allocate(JAVA_LONG);
            range.find(address, base, size);
            long start = base.get(JAVA_LONG, 0);
            MemorySegment bytes = arena.allocate(layout);
            handle.export(start, bytes);
            return new IpcMemoryHandle(mechanism, bytes.toArray(JAVA_BYTE), -1, address - start, size.get(JAVA_LONG, 0));
        }
    }

    /**
     * Opens a peer's handle after checking its mechanism, asks the driver how large the opened allocation is, and
     * wraps it with the exported pointer (the allocation's start plus the handle's offset). The size comes from the
     * driver, not from the peer: a handle that claims a larger allocation than the driver opened, or an offset past
     * its end, is refused (and the opened memory closed), so that nothing reads past what was opened.
     *
     * @param mechanism the mechanism of the device opening it
     * @param handle    the handle a peer exported
     * @param device    the device, for the message
     * @param open      opens the handle
     * @param range     finds the opened allocation's start and size
     * @param closer    the driver's close call, for the opened allocation's start
     * @return the memory, owned by the caller
     * @throws IllegalArgumentException if the handle is of another mechanism, or its sizes disagree with the driver's
     */
    public static ImportedMemory open(IpcMechanism mechanism, IpcMemoryHandle handle, Object device, OpenCall open,
                                      RangeCall range, ImportedMemory.Closer closer) {
        if (handle.mechanism() != mechanism) {
            throw new IllegalArgumentException("a " + handle.mechanism() + " handle cannot be opened on " + device
                    + ", whose mechanism is " + mechanism);
        }
        MemorySegment allocation;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(JAVA_LONG);
            open.open(arena.allocateFrom(JAVA_BYTE, handle.handle()), out);
            allocation = MemorySegment.ofAddress(out.get(JAVA_LONG, 0));
        }
        long opened;
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment base = arena.allocate(JAVA_LONG);
            MemorySegment size = arena.allocate(JAVA_LONG);
            range.find(allocation.address(), base, size);
            opened = size.get(JAVA_LONG, 0) - (allocation.address() - base.get(JAVA_LONG, 0));
            if (handle.allocationSize() > opened) {
                throw new IllegalArgumentException("the handle says its allocation holds " + handle.allocationSize()
                        + " bytes, but the driver opened " + opened + " on " + device);
            }
            if (handle.offset() >= Math.max(opened, 1)) {
                throw new IllegalArgumentException("offset " + handle.offset() + " lies past the " + opened
                        + " bytes the driver opened on " + device);
            }
        } catch (RuntimeException | Error e) {
            try {
                closer.close(allocation);
            } catch (RuntimeException | Error closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
        return new ImportedMemory(allocation, MemorySegment.ofAddress(allocation.address() + handle.offset()),
                opened - handle.offset(), closer);
    }
}
