package dev.quiver.spi;

/**
 * What a device may offer beyond the required core of {@link BackendDevice}: each capability is an interface
 * extending this one, and a caller finds it by asking the device, with {@link BackendDevice#capability(Class)}.
 * A device that lacks a capability answers {@link java.util.Optional#empty()}; no method of a capability
 * throws {@link UnsupportedOperationException} for want of the capability.
 *
 * <p><b>Offering one.</b> A backend offers a capability by implementing its interface on its device class:
 * the default {@link BackendDevice#capability(Class)} finds it there. A backend that knows only at run time
 * whether its driver has it (a driver version, a device flag) overrides {@code capability} and answers empty
 * where it does not. A device that wraps another (a lazily made device, a checked view) overrides
 * {@code capability} to ask the device it wraps.
 *
 * <p><b>Ownership and threading.</b> A capability object is borrowed from its device: it stays valid as long
 * as the device, is never closed by the caller, and its methods may be called from any thread, concurrently,
 * as the device's own methods may. What its methods return is owned as each method says.
 *
 * <p>The capabilities Quiver knows: {@link DeviceEvents} (with {@link EventWaits}), {@link IpcMemory},
 * {@link IpcEvents}, {@link NativeAdoption} and {@link PinnedHostMemory}.
 */
public interface DeviceCapability {
}
