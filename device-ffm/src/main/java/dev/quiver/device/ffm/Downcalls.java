package dev.quiver.device.ffm;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The downcall handles of a backend's table of entry points, each made on its first use from the address
 * found when the library was loaded. Making a downcall handle costs the JDK a generated stub per signature,
 * so a probe that calls a handful of functions pays for those alone, not for the whole table. Thread-safe:
 * two threads that both find a handle missing make equal handles, and either may be kept.
 */
public final class Downcalls {
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(MethodHandle[].class);

    private final MemorySegment[] addresses;
    private final FunctionDescriptor[] descriptors;
    private final MethodHandle[] handles;

    private Downcalls(MemorySegment[] addresses, FunctionDescriptor[] descriptors, MethodHandle[] handles) {
        this.addresses = addresses;
        this.descriptors = descriptors;
        this.handles = handles;
    }

    /**
     * @param addresses   the entry points, by index
     * @param descriptors how Java calls each, by the same index
     * @return downcalls bound on first use
     */
    public static Downcalls of(MemorySegment[] addresses, FunctionDescriptor[] descriptors) {
        if (addresses.length != descriptors.length) {
            throw new IllegalArgumentException(addresses.length + " addresses but " + descriptors.length + " descriptors");
        }
        return new Downcalls(addresses.clone(), descriptors.clone(), new MethodHandle[addresses.length]);
    }

    /** Finds the address of an entry point by its symbol. */
    @FunctionalInterface
    interface Finder {
        /**
         * @param symbol the entry point's symbol
         * @return its address
         * @throws VendorLibrary.NotFoundException saying where it is missing
         */
        MemorySegment find(String symbol) throws VendorLibrary.NotFoundException;
    }

    /**
     * Finds every entry point of a table now, for downcalls made on each entry point's first call.
     *
     * @param table  the backend's table
     * @param finder where the addresses come from
     * @param <F>    the table type
     * @return one downcall per constant, by ordinal
     * @throws VendorLibrary.NotFoundException naming the first entry point not found
     */
    static <F extends Enum<F> & CFunction.Table> Downcalls find(Class<F> table, Finder finder) throws VendorLibrary.NotFoundException {
        F[] functions = table.getEnumConstants();
        MemorySegment[] addresses = new MemorySegment[functions.length];
        FunctionDescriptor[] descriptors = new FunctionDescriptor[functions.length];
        for (F function : functions) {
            addresses[function.ordinal()] = finder.find(function.c().symbol());
            descriptors[function.ordinal()] = function.c().descriptor();
        }
        return of(addresses, descriptors);
    }

    /**
     * @param handles handles made already, by index
     * @return downcalls that are these handles
     */
    public static Downcalls bound(MethodHandle[] handles) {
        return new Downcalls(null, null, handles.clone());
    }

    /** @return the number of entry points */
    public int size() {
        return handles.length;
    }

    /**
     * @param index an entry point's index
     * @return its downcall handle
     */
    public MethodHandle get(int index) {
        MethodHandle handle = (MethodHandle) SLOT.getAcquire(handles, index);
        return handle != null ? handle : bind(index);
    }

    private MethodHandle bind(int index) {
        MethodHandle handle = Linker.nativeLinker().downcallHandle(addresses[index], descriptors[index]);
        SLOT.setRelease(handles, index, handle);
        return handle;
    }
}
