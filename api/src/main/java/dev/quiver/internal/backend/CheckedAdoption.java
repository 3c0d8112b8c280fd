package dev.quiver.internal.backend;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.NativeAdoption;

import java.lang.foreign.MemorySegment;
import java.util.Map;

/**
 * A device's {@link NativeAdoption} behind the checks of its {@link CheckedBackendDevice}: no NULL stream to
 * adopt, no stream another device's view made or adopted, never the default stream to forget. Adopted streams
 * join the view's table of streams, so that its copies accept them. Where the backend lacks the capability, a
 * stream is adopted as it is (a stream the device made itself is one it accepts), forgetting with
 * {@code destroy} destroys it with {@link BackendDevice#destroyStream}, and there are no native handles.
 * Failures are {@link IllegalArgumentException}s thrown before the backend is called; the backend's own
 * failures become the API's exceptions as the device view's do.
 *
 * <p>Owns nothing: adopted streams stay the caller's, as {@link NativeAdoption} says. Thread-safe as the
 * backend is.
 *
 * @param backend  the device, unchecked
 * @param adoption the backend's capability, unchecked; null where it lacks it
 * @param view     the checked view of the device
 */
record CheckedAdoption(BackendDevice backend, NativeAdoption adoption, CheckedBackendDevice view) implements NativeAdoption {

    @Override
    public Map<String, MemorySegment> nativeHandles() {
        return adoption == null ? Map.of() : adoption.nativeHandles();
    }

    @Override
    public MemorySegment adoptStream(MemorySegment nativeStream) {
        try {
            CheckedBackendDevice.requireHandle("nativeStream", nativeStream);
            view.checkForeign(HandleKind.STREAM, "nativeStream", nativeStream.address());
            MemorySegment stream = adoption == null ? nativeStream : adoption.adoptStream(nativeStream);
            view.trackStream(stream, true);
            return stream;
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public void forgetStream(MemorySegment stream, boolean destroy) {
        try {
            view.checkOwnedStream(stream);
            view.trackStream(stream, false);
            if (adoption != null) {
                adoption.forgetStream(stream, destroy);
            } else if (destroy) {
                backend.destroyStream(stream);
            }
        } catch (DeviceException e) {
            throw view.failed(e);
        }
    }

    @Override
    public String toString() {
        return "adoption of native streams by " + view;
    }
}
