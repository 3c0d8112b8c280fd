package dev.quiver.device.cpu;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceTypeCodes;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The host as a device. Pointers are host addresses; {@link #allocate} returns host-accessible segments
 * of the requested size. Live allocations and streams are tracked, so a double free or an unknown pointer
 * fails with a clear error instead of corrupting the heap. Thread-safe.
 */
final class CpuDevice implements BackendDevice {
    private static final long MIN_ALIGNMENT = 64;
    /** From this size on, copies call the C library's memcpy, which beats a JDK copy on large buffers. */
    private static final long MEMCPY_THRESHOLD = 64 * 1024;
    private static volatile CpuDevice instance;

    private final Set<Long> allocations = ConcurrentHashMap.newKeySet();
    private final Set<Long> streams = ConcurrentHashMap.newKeySet();
    private final AtomicLong nextStream = new AtomicLong(1);
    private final String name;
    private final long totalMemory;

    private CpuDevice() {
        LibC.check();
        this.name = cpuName();
        this.totalMemory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean()).getTotalMemorySize();
    }

    static CpuDevice instance() {
        CpuDevice result = instance;
        if (result == null) {
            synchronized (CpuDevice.class) {
                result = instance;
                if (result == null) {
                    result = new CpuDevice();
                    instance = result;
                }
            }
        }
        return result;
    }

    @Override
    public int deviceType() {
        return DeviceTypeCodes.CPU;
    }

    @Override
    public long deviceId() {
        return -1;
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long totalMemory() {
        return totalMemory;
    }

    @Override
    public boolean hostAccessible() {
        return true;
    }

    @Override
    public Map<String, String> properties() {
        Map<String, String> p = new LinkedHashMap<>();
        p.put("cores", Integer.toString(Runtime.getRuntime().availableProcessors()));
        p.put("arch", System.getProperty("os.arch"));
        p.put("alignment", MIN_ALIGNMENT + " B");
        return p;
    }

    @Override
    public MemorySegment allocate(long byteSize, long alignment) {
        if (byteSize < 0) {
            throw new IllegalArgumentException("byteSize is negative: " + byteSize);
        }
        if (alignment <= 0 || Long.bitCount(alignment) != 1) {
            throw new IllegalArgumentException("alignment must be a power of two, not " + alignment);
        }
        MemorySegment memory = LibC.alignedAlloc(Math.max(alignment, MIN_ALIGNMENT), Math.max(byteSize, 1));
        allocations.add(memory.address());
        return memory.reinterpret(byteSize);
    }

    @Override
    public void free(MemorySegment pointer) {
        if (pointer.equals(MemorySegment.NULL)) {
            return;
        }
        if (!allocations.remove(pointer.address())) {
            throw new IllegalArgumentException("0x" + Long.toHexString(pointer.address())
                    + " was not allocated by the CPU device or was already freed");
        }
        LibC.free(pointer);
    }

    @Override
    public void copyFromHost(MemorySegment source, MemorySegment destination, long destinationOffset, MemorySegment stream) {
        checkStream(stream);
        copy(source, 0, destination.reinterpret(destinationOffset + source.byteSize()), destinationOffset, source.byteSize());
    }

    @Override
    public void copyToHost(MemorySegment source, long sourceOffset, MemorySegment destination, MemorySegment stream) {
        checkStream(stream);
        copy(source.reinterpret(sourceOffset + destination.byteSize()), sourceOffset, destination, 0, destination.byteSize());
    }

    @Override
    public void copyWithinDevice(MemorySegment source, long sourceOffset, MemorySegment destination,
                                 long destinationOffset, long byteCount, MemorySegment stream) {
        checkStream(stream);
        copy(source.reinterpret(sourceOffset + byteCount), sourceOffset,
                destination.reinterpret(destinationOffset + byteCount), destinationOffset, byteCount);
    }

    /** Bounds-checked copy; large copies between native segments go to the C library's memcpy. */
    private static void copy(MemorySegment source, long sourceOffset, MemorySegment destination, long destinationOffset, long bytes) {
        MemorySegment from = source.asSlice(sourceOffset, bytes);
        MemorySegment to = destination.asSlice(destinationOffset, bytes);
        if (bytes >= MEMCPY_THRESHOLD && from.isNative() && to.isNative()) {
            LibC.memcpy(to, from, bytes);
        } else {
            MemorySegment.copy(from, 0, to, 0, bytes);
        }
    }

    @Override
    public MemorySegment createStream() {
        long token = nextStream.getAndIncrement();
        streams.add(token);
        return MemorySegment.ofAddress(token);
    }

    @Override
    public void synchronizeStream(MemorySegment stream) {
        checkStream(stream);
    }

    @Override
    public void destroyStream(MemorySegment stream) {
        if (stream.equals(MemorySegment.NULL) || !streams.remove(stream.address())) {
            throw new IllegalArgumentException("not a live CPU stream: 0x" + Long.toHexString(stream.address()));
        }
    }

    @Override
    public boolean supportsEvents() {
        return false;
    }

    private void checkStream(MemorySegment stream) {
        if (!stream.equals(MemorySegment.NULL) && !streams.contains(stream.address())) {
            throw new IllegalArgumentException("not a live CPU stream: 0x" + Long.toHexString(stream.address()));
        }
    }

    private static String cpuName() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).strip();
                }
            }
        } catch (java.io.IOException | SecurityException ignored) {
            // not Linux: fall back to the architecture
        }
        return "host " + System.getProperty("os.arch");
    }

    static DeviceException outOfMemory(long size) {
        return new DeviceException("posix_memalign failed: cannot allocate " + size + " bytes of host memory");
    }
}
