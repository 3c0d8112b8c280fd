package dev.quiver.device.metal;

import dev.quiver.device.ffm.Downcalls;
import dev.quiver.device.ffm.VendorLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.List;
import java.util.function.Supplier;

/**
 * The Objective-C runtime and the Metal framework, bound: the C functions of {@link ObjcFunction} and one
 * {@code objc_msgSend} downcall handle per {@link MetalMessage}, with its selector registered once. Loaded
 * once per process, macOS only. Thread-safe: messages may be sent from any thread; work that creates
 * autoreleased objects runs inside {@link #inPool}.
 */
final class ObjcRuntime {
    static final String LIBOBJC = "/usr/lib/libobjc.A.dylib";
    static final String METAL = "/System/Library/Frameworks/Metal.framework/Metal";

    private final Downcalls functions;
    private final MethodHandle[] messages;
    private final MemorySegment[] selectors;

    private ObjcRuntime(Downcalls functions, MethodHandle[] messages, MemorySegment[] selectors) {
        this.functions = functions;
        this.messages = messages;
        this.selectors = selectors;
    }

    /** Loads {@code libobjc} and Metal and binds everything, or says what is missing. */
    static ObjcRuntime load() throws VendorLibrary.NotFoundException {
        VendorLibrary objc = VendorLibrary.loadFirst(List.of(LIBOBJC));
        VendorLibrary metal = VendorLibrary.loadFirst(List.of(METAL));
        VendorLibrary both = new VendorLibrary(LIBOBJC + " and " + METAL, objc.lookup().or(metal.lookup()));
        Downcalls functions = both.bindAll(ObjcFunction.class);
        MemorySegment msgSend = objc.symbol("objc_msgSend");
        Linker linker = Linker.nativeLinker();
        MetalMessage[] all = MetalMessage.values();
        MethodHandle[] messages = new MethodHandle[all.length];
        MemorySegment[] selectors = new MemorySegment[all.length];
        try (Arena arena = Arena.ofConfined()) {
            for (MetalMessage message : all) {
                messages[message.ordinal()] = linker.downcallHandle(msgSend, message.descriptor());
                MemorySegment name = arena.allocateFrom(message.selector());
                selectors[message.ordinal()] = call(() -> (MemorySegment) functions.get(ObjcFunction.sel_registerName.ordinal()).invokeExact(name));
            }
        }
        return new ObjcRuntime(functions, messages, selectors);
    }

    /** A downcall returning {@code T}. */
    @FunctionalInterface
    interface Downcall<T> {
        T call() throws Throwable;
    }

    static <T> T call(Downcall<T> downcall) {
        try {
            return downcall.call();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** @return {@code MTLCreateSystemDefaultDevice()}: the default device, retained, or NULL */
    MemorySegment systemDefaultDevice() {
        return call(() -> (MemorySegment) functions.get(ObjcFunction.MTLCreateSystemDefaultDevice.ordinal()).invokeExact());
    }

    /** Runs {@code work} inside an autorelease pool, so autoreleased objects it makes are released after. */
    <T> T inPool(Supplier<T> work) {
        MemorySegment pool = call(() -> (MemorySegment) functions.get(ObjcFunction.objc_autoreleasePoolPush.ordinal()).invokeExact());
        try {
            return work.get();
        } finally {
            call(() -> {
                functions.get(ObjcFunction.objc_autoreleasePoolPop.ordinal()).invokeExact(pool);
                return null;
            });
        }
    }

    private MethodHandle handle(MetalMessage message) {
        return messages[message.ordinal()];
    }

    private MemorySegment selector(MetalMessage message) {
        return selectors[message.ordinal()];
    }

    /** Sends a message taking no arguments and returning an object or pointer. */
    MemorySegment object(MemorySegment receiver, MetalMessage message) {
        return call(() -> (MemorySegment) handle(message).invokeExact(receiver, selector(message)));
    }

    /** Sends a message taking no arguments and returning an {@code NSUInteger}/{@code uint64_t}. */
    long integer(MemorySegment receiver, MetalMessage message) {
        return call(() -> (long) handle(message).invokeExact(receiver, selector(message)));
    }

    /** Sends a message taking no arguments and returning nothing. */
    void send(MemorySegment receiver, MetalMessage message) {
        call(() -> {
            handle(message).invokeExact(receiver, selector(message));
            return null;
        });
    }

    /** {@code [device newBufferWithLength:length options:options]}: a new buffer, retained. */
    MemorySegment newBuffer(MemorySegment device, long length, long options) {
        MetalMessage m = MetalMessage.newBufferWithLength_options;
        return call(() -> (MemorySegment) handle(m).invokeExact(device, selector(m), length, options));
    }

    /** {@code [device newBufferWithBytes:bytes length:length options:options]}: a new buffer holding a copy, retained. */
    MemorySegment newBuffer(MemorySegment device, MemorySegment bytes, long length, long options) {
        MetalMessage m = MetalMessage.newBufferWithBytes_length_options;
        return call(() -> (MemorySegment) handle(m).invokeExact(device, selector(m), bytes, length, options));
    }

    /** {@code [commandBuffer encodeSignalEvent:event value:value]} or {@code encodeWaitForEvent:value:}. */
    void encodeEvent(MemorySegment commandBuffer, MetalMessage message, MemorySegment event, long value) {
        call(() -> {
            handle(message).invokeExact(commandBuffer, selector(message), event, value);
            return null;
        });
    }

    /** {@code [blit copyFromBuffer:from sourceOffset:fromOffset toBuffer:to destinationOffset:toOffset size:size]}. */
    void copyBuffer(MemorySegment blit, MemorySegment from, long fromOffset, MemorySegment to, long toOffset, long size) {
        MetalMessage m = MetalMessage.copyFromBuffer_sourceOffset_toBuffer_destinationOffset_size;
        call(() -> {
            handle(m).invokeExact(blit, selector(m), from, fromOffset, to, toOffset, size);
            return null;
        });
    }

    /** @return the UTF-8 text of an {@code NSString}, or {@code ""} for nil */
    String string(MemorySegment nsString) {
        if (nsString.equals(MemorySegment.NULL)) {
            return "";
        }
        return object(nsString, MetalMessage.UTF8String).reinterpret(Long.MAX_VALUE).getString(0);
    }
}
