package dev.quiver.device.ffm;

import dev.quiver.spi.ImportedMemory;
import dev.quiver.spi.IpcMemoryHandle;

import java.lang.foreign.Arena;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Inter-process memory of a driver that names an allocation by opaque bytes ({@code CUipcMemHandle},
 * {@code hipIpcMemHandle_t}, {@code ze_ipc_mem_handle_t}), bound to one device: a backend gives the four
 * driver calls it is made of, and the steps around them are here, once. Exporting finds the allocation
 * holding an address, names it and keeps the address's offset, so pointers inside an allocation (a pool's
 * sub-allocations, slices) travel as the allocation's handle plus their offset; opening checks the mechanism,
 * opens, and bounds what was opened by the driver's own size of it. Every call runs inside {@link #inContext}.
 * Implementations are immutable and thread-safe.
 */
public interface DriverIpc extends VendorIpc {

    /**
     * {@return the C struct of a driver's IPC handle: one array of {@code byteSize} bytes, passed by value}
     * @param member   the array's name in the vendor header ({@code reserved}, {@code data})
     * @param byteSize the handle's size, for example 64
     */
    static GroupLayout handleLayout(String member, int byteSize) {
        return MemoryLayout.structLayout(MemoryLayout.sequenceLayout(byteSize, JAVA_BYTE).withName(member));
    }

    /** {@return the C struct of the driver's memory handle, of the mechanism's size} */
    GroupLayout memoryHandle();

    /**
     * Writes the start and size of the allocation holding an address ({@code cuMemGetAddressRange}, ...).
     *
     * @param address the address, exported or opened
     * @param base    where the start goes (8 bytes)
     * @param size    where the size goes (8 bytes)
     */
    void findAllocation(long address, MemorySegment base, MemorySegment size);

    /**
     * Writes the handle of an allocation ({@code cuIpcGetMemHandle}, ...).
     *
     * @param base   the allocation's start
     * @param handle where the handle goes, {@link #memoryHandle()} bytes
     */
    void nameAllocation(long base, MemorySegment handle);

    /**
     * Opens a peer's handle on this device ({@code cuIpcOpenMemHandle}, ...).
     *
     * @param handle  the handle's bytes, in native memory, of the mechanism's size
     * @param pointer where the opened allocation's start goes (8 bytes)
     */
    void openHandle(MemorySegment handle, MemorySegment pointer);

    /**
     * Unmaps what {@link #openHandle} opened ({@code cuIpcCloseMemHandle}, ...).
     *
     * @param opened the opened allocation's start
     */
    void closeHandle(MemorySegment opened);

    /**
     * Runs driver calls with the device's context current, where the driver needs one; the default runs them
     * as they are.
     *
     * @param work the calls
     * @param <T>  what they return
     * @return what {@code work} returned
     */
    default <T> T inContext(Supplier<T> work) {
        return work.get();
    }

    /** {@return the handle of the allocation holding {@code address}, with the address's offset in it} */
    @Override
    default IpcMemoryHandle export(long address) {
        return inContext(() -> {
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment base = arena.allocate(JAVA_LONG);
                MemorySegment size = arena.allocate(JAVA_LONG);
                findAllocation(address, base, size);
                long start = base.get(JAVA_LONG, 0);
                MemorySegment bytes = arena.allocate(memoryHandle());
                nameAllocation(start, bytes);
                return new IpcMemoryHandle(mechanism(), bytes.toArray(JAVA_BYTE), -1, address - start, size.get(JAVA_LONG, 0));
            }
        });
    }

    /**
     * Opens a peer's handle after checking its mechanism, asks the driver how large the opened allocation is, and
     * wraps it with the exported pointer (the allocation's start plus the handle's offset). The size comes from the
     * driver, not from the peer: a handle that claims a larger allocation than the driver opened, or an offset past
     * its end, is refused (and the opened memory closed), so that nothing reads past what was opened.
     *
     * @param handle the handle a peer exported
     * @param device the device, for messages
     * @return the memory, owned by the caller, closed with {@link #closeHandle}
     * @throws IllegalArgumentException if the handle is of another mechanism, or its sizes disagree with the driver's
     */
    @Override
    default ImportedMemory open(IpcMemoryHandle handle, Object device) {
        if (handle.mechanism() != mechanism()) {
            throw new IllegalArgumentException("a " + handle.mechanism() + " handle cannot be opened on " + device
                    + ", whose mechanism is " + mechanism());
        }
        return inContext(() -> {
            MemorySegment allocation;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment out = arena.allocate(JAVA_LONG);
                openHandle(arena.allocateFrom(JAVA_BYTE, handle.handle()), out);
                allocation = MemorySegment.ofAddress(out.get(JAVA_LONG, 0));
            }
            ImportedMemory.Closer closer = opened -> inContext(() -> {
                closeHandle(opened);
                return null;
            });
            long opened;
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment base = arena.allocate(JAVA_LONG);
                MemorySegment size = arena.allocate(JAVA_LONG);
                findAllocation(allocation.address(), base, size);
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
        });
    }
}
