package dev.quiver.device.cuda;

import java.lang.foreign.MemorySegment;
import java.util.function.Supplier;

/**
 * A {@code CUcontext} this backend works in: a device's primary context (retained once by the backend and
 * kept for the life of the process, so that the CUDA runtime API and libraries built on it share it), or a
 * context an application created and lent (adopted: never retained, released or destroyed here).
 *
 * <p>The driver keeps a stack of current contexts per thread. Work runs inside {@link #call}/{@link #run},
 * which push this context and pop it afterwards, so the calling thread's context stack is the same before
 * and after, whatever the application had made current. Immutable; any thread.
 */
final class CudaContext {
    private final CudaDriver driver;
    private final MemorySegment handle;
    private final int device;
    private final int ordinal;
    private final boolean primary;

    CudaContext(CudaDriver driver, MemorySegment handle, int device, int ordinal, boolean primary) {
        this.driver = driver;
        this.handle = handle;
        this.device = device;
        this.ordinal = ordinal;
        this.primary = primary;
    }

    /** @return the {@code CUcontext} */
    MemorySegment handle() {
        return handle;
    }

    /** @return the {@code CUdevice} handle of its device */
    int device() {
        return device;
    }

    /** @return the device ordinal, which is the Arrow {@code device_id} */
    int ordinal() {
        return ordinal;
    }

    /** @return true for a device's primary context, false for an adopted one */
    boolean isPrimary() {
        return primary;
    }

    /** Runs {@code work} with this context current on the calling thread. */
    <T> T call(Supplier<T> work) {
        driver.api.check(CudaFunction.cuCtxPushCurrent, h -> (int) h.invokeExact(handle));
        try {
            return work.get();
        } finally {
            MemorySegment popped = driver.api.handleOut(CudaFunction.cuCtxPopCurrent, (h, out) -> (int) h.invokeExact(out));
            if (popped.address() != handle.address()) {
                throw new IllegalStateException("CUDA context stack changed underneath: pushed 0x" + Long.toHexString(handle.address())
                        + ", popped 0x" + Long.toHexString(popped.address()));
            }
        }
    }

    /** Runs {@code work} with this context current on the calling thread. */
    void run(Runnable work) {
        call(() -> {
            work.run();
            return null;
        });
    }

    @Override
    public String toString() {
        return (primary ? "primary context 0x" : "adopted context 0x") + Long.toHexString(handle.address()) + " of device " + ordinal;
    }
}
