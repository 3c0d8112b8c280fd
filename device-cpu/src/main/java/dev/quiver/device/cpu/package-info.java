/**
 * The CPU backend. Its device is the host device shared with the API ({@code dev.quiver.spi.host.HostDevice});
 * this module makes the C library its heap. Buffers of a CPU ArrowDeviceArray are plain host addresses,
 * allocated 64-byte aligned with the C library's {@code posix_memalign} and freed with {@code free}; copies
 * from 16 KiB between native segments call {@code memcpy} ({@code dev.quiver.device.ffm.HostCopy}). The two
 * functions are declared in one table ({@code LibCFunction}) and bound through the shared binding layer
 * {@code dev.quiver.device.ffm}. The CPU has no events: CPU arrays carry no
 * {@code sync_event}, copies complete before they return, and streams are ordering tokens with nothing to
 * wait for. Device id is -1, as the Arrow C Device interface prescribes.
 * There are no native handles ({@code nativeHandles()} is empty) and nothing native to adopt:
 * {@code adoptStream} returns the stream token it is given, {@code forgetStream} destroys it only when asked,
 * and {@code adoptEvent} throws {@link java.lang.UnsupportedOperationException}, as the SPI's defaults do.
 */
package dev.quiver.device.cpu;
