package dev.quiver.device.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

/**
 * Makes the upcall stubs of the backends: C function pointers that call a Java method, for callbacks a
 * vendor API invokes (OpenCL's event callbacks, for one). Each stub lives in the global arena, so it stays
 * valid for the life of the process, however late the vendor calls it; make a stub once and keep it.
 *
 * <p>The vendor calls the method on a thread of its choosing, often one of its own; the method must be
 * thread-safe and must never throw, since an exception escaping an upcall ends the process. Stateless;
 * thread-safe.
 */
public final class Upcalls {
    private Upcalls() {}

    /**
     * @param lookup     a lookup with access to {@code method}, normally {@code MethodHandles.lookup()} of its
     *                   class
     * @param receiver   the object whose method the stub calls
     * @param method     the name of an instance method of {@code receiver}'s class, whose parameter and return
     *                   types are the carriers of {@code descriptor}
     * @param descriptor the C function type of the callback
     * @return the stub, a C function pointer valid for the life of the process
     * @throws IllegalArgumentException if the class has no such method, or {@code lookup} cannot reach it
     */
    public static MemorySegment of(MethodHandles.Lookup lookup, Object receiver, String method, FunctionDescriptor descriptor) {
        MethodHandle target;
        try {
            target = lookup.findVirtual(receiver.getClass(), method, descriptor.toMethodType()).bindTo(receiver);
        } catch (ReflectiveOperationException e) {
            throw new IllegalArgumentException(receiver.getClass().getName() + "." + method + " cannot be the upcall "
                    + descriptor + ": " + e.getMessage(), e);
        }
        return Linker.nativeLinker().upcallStub(target, descriptor, Arena.global());
    }
}
