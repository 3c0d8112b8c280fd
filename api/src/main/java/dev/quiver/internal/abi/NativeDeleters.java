package dev.quiver.internal.abi;

import dev.quiver.abi.DLManagedTensorLayout;
import dev.quiver.abi.DLManagedTensorVersionedLayout;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * The deleters of tensors Quiver exports, and the calling of foreign deleters.
 *
 * <p>An exported tensor's {@code manager_ctx} is an id into a table of what it holds (never a Java
 * reference). Our deleters may be called from any native thread; they never throw: failures are recorded by
 * {@link CallbackErrors}. The upcall stubs are made on first use, never at class initialisation.
 */
public final class NativeDeleters {
    private static final FunctionDescriptor DELETER = FunctionDescriptor.ofVoid(ADDRESS);
    private static final AtomicLong NEXT = new AtomicLong(1);
    private static final ConcurrentHashMap<Long, Runnable> LIVE = new ConcurrentHashMap<>();

    private NativeDeleters() {}

    /** Upcall stubs and the generic invoker, made once, on first use. */
    private static final class Stubs {
        static final MemorySegment VERSIONED = upcall("deleteVersioned");
        static final MemorySegment LEGACY = upcall("deleteLegacy");
        static final MethodHandle INVOKE = Linker.nativeLinker().downcallHandle(DELETER);

        private static MemorySegment upcall(String method) {
            try {
                MethodHandle target = MethodHandles.lookup().findStatic(NativeDeleters.class, method,
                        MethodType.methodType(void.class, MemorySegment.class));
                return Linker.nativeLinker().upcallStub(target, DELETER, Arena.global());
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /** @return our {@code void deleter(DLManagedTensorVersioned*)} */
    public static MemorySegment versionedDeleter() {
        return Stubs.VERSIONED;
    }

    /** @return our {@code void deleter(DLManagedTensor*)} */
    public static MemorySegment legacyDeleter() {
        return Stubs.LEGACY;
    }

    /**
     * @param free what the tensor's deleter gives back; runs exactly once
     * @return the id to store in {@code manager_ctx}
     */
    public static long register(Runnable free) {
        long id = NEXT.getAndIncrement();
        LIVE.put(id, free);
        return id;
    }

    /**
     * Gives back what {@link #register} was given, for an export that failed before it was handed over.
     *
     * @param id the registered id
     */
    public static void deleteNow(long id) {
        Runnable free = LIVE.remove(id);
        if (free != null) {
            free.run();
        }
    }

    /** @return exported tensors whose deleter has not run yet */
    public static int live() {
        return LIVE.size();
    }

    /**
     * Calls a tensor's deleter, foreign or ours; a NULL deleter is tolerated (nothing to call).
     *
     * @param deleter the {@code deleter} field
     * @param self    the managed tensor
     */
    public static void call(MemorySegment deleter, MemorySegment self) {
        if (deleter.equals(MemorySegment.NULL)) {
            return;
        }
        try {
            Stubs.INVOKE.invokeExact(deleter, self);
        } catch (Throwable t) {
            throw new IllegalStateException("DLPack deleter failed", t);
        }
    }

    /** Our {@code void deleter(DLManagedTensorVersioned*)}. Never throws. */
    static void deleteVersioned(MemorySegment self) {
        delete(self, DLManagedTensorVersionedLayout.LAYOUT.byteSize(), DLManagedTensorVersionedLayout.MANAGER_CTX,
                "DLManagedTensorVersioned.deleter");
    }

    /** Our {@code void deleter(DLManagedTensor*)}. Never throws. */
    static void deleteLegacy(MemorySegment self) {
        delete(self, DLManagedTensorLayout.LAYOUT.byteSize(), DLManagedTensorLayout.MANAGER_CTX, "DLManagedTensor.deleter");
    }

    private static void delete(MemorySegment self, long size, long managerContext, String callback) {
        try {
            if (self.equals(MemorySegment.NULL)) {
                throw new IllegalArgumentException("called with NULL");
            }
            long id = self.reinterpret(size).get(ADDRESS, managerContext).address();
            Runnable free = LIVE.remove(id);
            if (free == null) {
                throw new IllegalStateException("manager_ctx " + id + " is not a live export (deleter called twice?)");
            }
            free.run();
        } catch (Throwable t) {
            CallbackErrors.record(callback, t);
        }
    }
}
