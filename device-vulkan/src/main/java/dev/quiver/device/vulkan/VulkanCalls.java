package dev.quiver.device.vulkan;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

/**
 * The few Vulkan calls the {@link VulkanSurvey} makes, by name, through the pointers
 * {@code vkGetInstanceProcAddr} returns, in the four shapes they have. A function the loader does not have
 * fails with {@link IllegalStateException}. Immutable; thread-safe.
 */
final class VulkanCalls {
    private static final FunctionDescriptor INT_OF_POINTER = FunctionDescriptor.of(JAVA_INT, ADDRESS);
    private static final FunctionDescriptor INT_OF_3_POINTERS = FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS, ADDRESS);
    private static final FunctionDescriptor VOID_OF_2_POINTERS = FunctionDescriptor.ofVoid(ADDRESS, ADDRESS);
    private static final FunctionDescriptor VOID_OF_3_POINTERS = FunctionDescriptor.ofVoid(ADDRESS, ADDRESS, ADDRESS);

    private final MethodHandle getInstanceProcAddr;

    /** @param getInstanceProcAddr the loader's {@code vkGetInstanceProcAddr} */
    VulkanCalls(MemorySegment getInstanceProcAddr) {
        this.getInstanceProcAddr = Linker.nativeLinker().downcallHandle(getInstanceProcAddr, FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS));
    }

    /** {@code VkResult name(void *)}, a global function. */
    int call(String name, MemorySegment a) {
        MethodHandle function = function(MemorySegment.NULL, name, INT_OF_POINTER);
        try {
            return (int) function.invokeExact(a);
        } catch (Throwable t) {
            throw failed(name, t);
        }
    }

    /** {@code VkResult name(void *, void *, void *)} of {@code instance} (NULL for a global function). */
    int call(MemorySegment instance, String name, MemorySegment a, MemorySegment b, MemorySegment c) {
        MethodHandle function = function(instance, name, INT_OF_3_POINTERS);
        try {
            return (int) function.invokeExact(a, b, c);
        } catch (Throwable t) {
            throw failed(name, t);
        }
    }

    /** {@code void name(void *, void *)} of {@code instance}. */
    void run(MemorySegment instance, String name, MemorySegment a, MemorySegment b) {
        MethodHandle function = function(instance, name, VOID_OF_2_POINTERS);
        try {
            function.invokeExact(a, b);
        } catch (Throwable t) {
            throw failed(name, t);
        }
    }

    /** {@code void name(void *, void *, void *)} of {@code instance}. */
    void run(MemorySegment instance, String name, MemorySegment a, MemorySegment b, MemorySegment c) {
        MethodHandle function = function(instance, name, VOID_OF_3_POINTERS);
        try {
            function.invokeExact(a, b, c);
        } catch (Throwable t) {
            throw failed(name, t);
        }
    }

    private MethodHandle function(MemorySegment instance, String name, FunctionDescriptor descriptor) {
        MemorySegment address;
        try (Arena arena = Arena.ofConfined()) {
            address = (MemorySegment) getInstanceProcAddr.invokeExact(instance, arena.allocateFrom(name));
        } catch (Throwable t) {
            throw failed(name, t);
        }
        if (address.equals(MemorySegment.NULL)) {
            throw new IllegalStateException("the Vulkan loader has no " + name);
        }
        return Linker.nativeLinker().downcallHandle(address, descriptor);
    }

    private static RuntimeException failed(String name, Throwable t) {
        return t instanceof RuntimeException e ? e : new IllegalStateException(name + " failed", t);
    }
}
