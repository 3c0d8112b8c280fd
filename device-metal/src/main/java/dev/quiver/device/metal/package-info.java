/**
 * The Metal backend: Metal through the Objective-C runtime and FFM, macOS only. It compiles and loads on
 * every platform; elsewhere its probe reports "macOS only" and nothing native is touched.
 *
 * <p><b>Calling Objective-C.</b> {@code libobjc} gives {@code sel_registerName}, the autorelease pool and
 * {@code objc_msgSend}; Metal gives {@code MTLCreateSystemDefaultDevice}. Every message is sent through
 * {@code objc_msgSend} bound once per selector signature with its exact C shape
 * ({@code ret (*)(id, SEL, args...)}), never as a variadic call: on arm64 variadic arguments go on the stack
 * where the method expects registers. On x86_64, methods returning structs larger than 16 bytes would need
 * {@code objc_msgSend_stret} and {@code long double} returns {@code objc_msgSend_fpret}; arm64 has neither.
 * No message this backend sends returns a struct or a floating-point value, so {@code objc_msgSend} serves
 * both architectures (see {@link dev.quiver.device.metal.MetalProvider} for the device, and the table of
 * messages in the sources). Objects the backend creates with {@code new...} are released exactly once;
 * autoreleased ones are made inside an autorelease pool.
 *
 * <p><b>Buffers.</b> {@code MTLBuffer}s of one {@link dev.quiver.device.metal.MetalStorage} mode per
 * provider: private storage (the buffer pointer is the opaque {@code id<MTLBuffer>}; offsets travel beside
 * it) or shared storage (the pointer is the host-accessible {@code contents}). Managed storage (Intel Macs)
 * is not used.
 *
 * <p><b>{@code sync_event}.</b> For {@code ARROW_DEVICE_METAL}, {@code sync_event} is an {@code MTLEvent*}:
 * it points to the {@code id<MTLSharedEvent>}, it is not the id. Exported arrays own an
 * {@code MTLSharedEvent} signalled by their producing queue; recording an event signals its next value
 * (1, 2, ...), and an event from another producer is taken as complete at value 1, a convention the Arrow
 * specification leaves open and which producers and consumers must share.
 *
 * <p><b>Native handles and adoption.</b> {@code BackendDevice.nativeHandles()} gives {@code "MTLDevice"} (the
 * {@code id<MTLDevice>}) and {@code "MTLCommandQueue"} (the device's default queue), borrowed: valid as long as
 * the device (the life of the process), never released by the caller. {@code adoptStream} takes an
 * application's {@code id<MTLCommandQueue>} whose {@code device} is this device, and {@code adoptEvent} an
 * {@code id<MTLSharedEvent>} whose {@code device} is this device; each is used as it is, without a
 * {@code retain}, so the application keeps it alive until it calls {@code forgetStream}/{@code forgetEvent},
 * which release it only when asked (after waiting for the queue's work). An adopted event that Quiver has not
 * recorded is complete at value 1 (the convention above); recording it signals the value after its current
 * {@code signaledValue}.
 *
 * <p><b>What is verified where.</b> Without macOS, the build checks only the shape of each message against
 * its selector (one argument per colon; no struct or floating-point results) and the probe's reason; the
 * backend runs only on a Mac.
 *
 * <p><b>No library to lend.</b> {@code Device.vendorLibrary()} of a Metal device is empty: Metal is a framework
 * reached through the Objective-C runtime, not a C library with symbols to bind.
 */
package dev.quiver.device.metal;
