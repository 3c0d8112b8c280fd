package dev.quiver.device.metal;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.util.ArrayList;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every Objective-C message this backend sends, with the C shape {@code objc_msgSend} is called with for
 * it: {@code ret objc_msgSend(id self, SEL _cmd, args...)}.
 *
 * <p><b>Why one shape per selector.</b> {@code objc_msgSend} is a trampoline that jumps to the method with
 * the registers as it found them, so the caller must set them up exactly as for the method's own C
 * signature. It is declared variadic, but must never be called as variadic: on arm64 (Apple silicon) the
 * variadic convention passes arguments on the stack where the method expects registers. Each constant here
 * is therefore bound as its own non-variadic downcall handle.
 *
 * <p><b>arm64 and x86_64.</b> On arm64 {@code objc_msgSend} serves every return type (a large struct is
 * returned through the indirect result register, which the downcall handle manages). On x86_64, methods
 * returning a struct larger than 16 bytes must go through {@code objc_msgSend_stret} (hidden first pointer
 * argument) and those returning {@code long double} through {@code objc_msgSend_fpret}. No message here
 * returns a struct or a floating-point value (the tests check this), so {@code objc_msgSend} is right for
 * both architectures. Integer types are {@code NSUInteger}/{@code uint64_t} ({@code JAVA_LONG}); objects,
 * classes and pointers are {@code ADDRESS}.
 */
enum MetalMessage {
    // NSObject
    release(null),
    // NSString, NSError
    UTF8String(ADDRESS),
    localizedDescription(ADDRESS),
    // id<MTLDevice>
    name(ADDRESS),
    recommendedMaxWorkingSetSize(JAVA_LONG),
    newCommandQueue(ADDRESS),
    newSharedEvent(ADDRESS),
    newBufferWithLength_options("newBufferWithLength:options:", ADDRESS, JAVA_LONG, JAVA_LONG),
    newBufferWithBytes_length_options("newBufferWithBytes:length:options:", ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG),
    // id<MTLBuffer>
    contents(ADDRESS),
    // id<MTLCommandQueue>, id<MTLSharedEvent>
    device(ADDRESS),
    // id<MTLCommandQueue>
    commandBuffer(ADDRESS),
    // id<MTLCommandBuffer>
    blitCommandEncoder(ADDRESS),
    encodeSignalEvent_value("encodeSignalEvent:value:", null, ADDRESS, JAVA_LONG),
    encodeWaitForEvent_value("encodeWaitForEvent:value:", null, ADDRESS, JAVA_LONG),
    commit(null),
    waitUntilCompleted(null),
    status(JAVA_LONG),
    error(ADDRESS),
    retain(ADDRESS),
    // id<MTLBlitCommandEncoder>
    copyFromBuffer_sourceOffset_toBuffer_destinationOffset_size("copyFromBuffer:sourceOffset:toBuffer:destinationOffset:size:",
            null, ADDRESS, JAVA_LONG, ADDRESS, JAVA_LONG, JAVA_LONG),
    endEncoding(null),
    // id<MTLSharedEvent>
    signaledValue(JAVA_LONG);

    private final String selector;
    private final MemoryLayout result;
    private final List<MemoryLayout> arguments;

    /** A message without arguments, whose selector is the constant's name. */
    MetalMessage(MemoryLayout result) {
        this.selector = name();
        this.result = result;
        this.arguments = List.of();
    }

    MetalMessage(String selector, MemoryLayout result, MemoryLayout... arguments) {
        this.selector = selector;
        this.result = result;
        this.arguments = List.of(arguments);
    }

    /** @return the selector, for example {@code newBufferWithLength:options:} */
    String selector() {
        return selector;
    }

    /** @return the method's result layout, or null for {@code void} */
    MemoryLayout result() {
        return result;
    }

    /** @return the method's arguments after {@code self} and {@code _cmd} */
    List<MemoryLayout> arguments() {
        return arguments;
    }

    /** @return the shape {@code objc_msgSend} is called with: {@code (id self, SEL _cmd, arguments...)} */
    FunctionDescriptor descriptor() {
        List<MemoryLayout> all = new ArrayList<>();
        AddressLayout self = ADDRESS;
        all.add(self);
        all.add(ADDRESS);
        all.addAll(arguments);
        MemoryLayout[] parameters = all.toArray(MemoryLayout[]::new);
        return result == null ? FunctionDescriptor.ofVoid(parameters) : FunctionDescriptor.of(result, parameters);
    }
}
