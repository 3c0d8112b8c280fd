package dev.quiver.device.ffm;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * A vendor function that returns the address of another of the API's functions by name, for one of the
 * API's objects or for none: Vulkan's {@code vkGetInstanceProcAddr} and {@code vkGetDeviceProcAddr}, OpenCL's
 * {@code clGetExtensionFunctionAddressForPlatform}, each declared as
 * {@code void (*loader(void *object, const char *symbol))(void)} up to the vendor's type names ({@link #DESCRIPTOR}). It binds a backend's table of entry points the way {@link VendorLibrary#bindAll} binds
 * exported symbols: every address is asked for now, so a missing function fails at once with
 * {@link VendorLibrary.NotFoundException}, and each downcall handle is made on the entry point's first call
 * ({@link Downcalls}); {@link Bindings} over the result calls them and turns result codes into the backend's
 * exceptions.
 *
 * <p>An address it returns is valid as long as the object it was asked for lives (for Vulkan, until the
 * instance or device is destroyed): whoever owns that object keeps it alive while the bound downcalls are in
 * use. The loader function itself stays valid as long as its library stays loaded, which for a
 * {@link VendorLibrary} is the life of the process. Immutable; thread-safe, as the vendors' loader functions
 * are.
 */
public final class ProcAddressLoader {
    /** How Java calls a loader function: two pointers in (the object, the symbol's name), a pointer out. */
    public static final FunctionDescriptor DESCRIPTOR = FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS);

    private final String name;
    private final MethodHandle handle;

    private ProcAddressLoader(String name, MethodHandle handle) {
        this.name = name;
        this.handle = handle;
    }

    /**
     * Finds a loader function that a library exports.
     *
     * @param library     the vendor library
     * @param declaration the loader function's C declaration, whose descriptor must be {@link #DESCRIPTOR}
     * @return the loader function
     * @throws VendorLibrary.NotFoundException saying the library lacks it
     * @throws IllegalArgumentException        if the declaration's descriptor is not {@link #DESCRIPTOR}
     */
    public static ProcAddressLoader find(VendorLibrary library, CFunction declaration) throws VendorLibrary.NotFoundException {
        if (!declaration.descriptor().equals(DESCRIPTOR)) {
            throw new IllegalArgumentException(declaration.prototype() + " is not a loader function: its descriptor is "
                    + declaration.descriptor() + ", not " + DESCRIPTOR);
        }
        return at(declaration.symbol(), library.symbol(declaration.symbol()));
    }

    /**
     * A loader function at an address obtained at run time (for example {@code vkGetDeviceProcAddr} as
     * {@code vkGetInstanceProcAddr} returns it).
     *
     * @param name    its name, for messages
     * @param address its address, which must stay valid while this is used
     * @return the loader function
     * @throws IllegalArgumentException if the address is NULL
     */
    public static ProcAddressLoader at(String name, MemorySegment address) {
        if (address.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(name + " is at NULL");
        }
        return new ProcAddressLoader(name, Linker.nativeLinker().downcallHandle(address, DESCRIPTOR));
    }

    /** {@return the loader function's name, for example {@code vkGetInstanceProcAddr}} */
    public String name() {
        return name;
    }

    /**
     * Asks the loader function for a function's address.
     *
     * @param object the object whose function it is, or NULL for one of the API's global functions
     * @param symbol the function's name
     * @return its address, never NULL
     * @throws VendorLibrary.NotFoundException if the loader function returns NULL; the message names the
     *                                         loader function, the object and the symbol
     */
    public MemorySegment address(MemorySegment object, String symbol) throws VendorLibrary.NotFoundException {
        MemorySegment address;
        try (Arena arena = Arena.ofConfined()) {
            address = (MemorySegment) handle.invokeExact(object, arena.allocateFrom(symbol));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
        if (address.equals(MemorySegment.NULL)) {
            String of = object.equals(MemorySegment.NULL) ? "NULL" : "0x" + Long.toHexString(object.address());
            throw new VendorLibrary.NotFoundException(name + "(" + of + ", \"" + symbol + "\") returned NULL");
        }
        return address;
    }

    /**
     * Asks for every entry point of a table now, and makes each downcall handle on the entry point's first
     * call.
     *
     * @param object the object whose functions they are, or NULL for the API's global functions
     * @param table  the backend's table
     * @param <F>    the table type
     * @return one downcall per constant, by ordinal, valid while {@code object} lives
     * @throws VendorLibrary.NotFoundException naming the first function the loader function does not return
     */
    public <F extends Enum<F> & CFunction.Table> Downcalls bindAll(MemorySegment object, Class<F> table)
            throws VendorLibrary.NotFoundException {
        return Downcalls.find(table, symbol -> address(object, symbol));
    }

    /** {@return the loader function's name} */
    @Override
    public String toString() {
        return name;
    }
}
