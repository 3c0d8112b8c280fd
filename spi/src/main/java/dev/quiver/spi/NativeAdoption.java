package dev.quiver.spi;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * A device capability: the vendor API's objects behind the device, handed out for applications that call the
 * vendor API themselves, and streams made outside Quiver taken in (a {@code CUstream}, a
 * {@code cl_command_queue}, ...), so that Quiver shares a context an application already made. Found with
 * {@code device.capability(NativeAdoption.class)}. Events made outside Quiver are adopted by
 * {@link DeviceEvents#adoptEvent}. Without this capability the API takes a stream the device made itself as it
 * is, and lists no native handles.
 *
 * <p><b>Ownership.</b> The handles of {@link #nativeHandles()} are borrowed: the backend owns them, they stay
 * valid as long as the device, and the caller never releases them. An adopted stream stays the caller's native
 * object until {@link #forgetStream} with {@code destroy} true, which releases it as the vendor API does.
 *
 * <p><b>Threading.</b> All methods may be called from any thread, concurrently; an adopted stream is used as
 * any stream of the device is.
 */
public interface NativeAdoption extends DeviceCapability {

    /**
     * The vendor API's objects behind this device. Keys are the vendor API's type names ({@code "cl_context"},
     * {@code "CUcontext"}, {@code "VkDevice"}, ...), listed in each backend's package documentation; values are
     * raw handles (integers such as a {@code CUdevice} ordinal or a queue family index are given as
     * {@code MemorySegment.ofAddress(value)}).
     *
     * @return the handles, borrowed, in a stable order
     */
    Map<String, MemorySegment> nativeHandles();

    /**
     * Accepts a stream or queue of this device that was made outside Quiver so that every method of the
     * device that takes a stream accepts the handle this returns.
     *
     * @param nativeStream the vendor API's stream or queue handle, of this device
     * @return the stream handle to pass to this device's methods
     * @throws IllegalArgumentException if the handle is not a stream of this device, where the backend can tell
     */
    MemorySegment adoptStream(MemorySegment nativeStream);

    /**
     * Undoes {@link #adoptStream}. With {@code destroy} true the native object is also released, as the
     * vendor API releases it, once the work enqueued on it completes.
     *
     * @param stream  what {@link #adoptStream} returned
     * @param destroy whether to release the native stream too
     */
    void forgetStream(MemorySegment stream, boolean destroy);
}
