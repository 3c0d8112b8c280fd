package dev.quiver.internal.abi;

import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * Views of foreign memory at a raw pointer, sized by what the C ABI says lies there. These are the
 * restricted {@link MemorySegment#reinterpret(long)} calls of the API, in one place: the caller vouches that
 * the memory is readable for the size asked and stays alive while the view is used (the views have the
 * global scope; they keep nothing alive and are never freed). Stateless; safe from any thread.
 */
public final class Pointers {
    private Pointers() {}

    /**
     * @param pointer  a pointer to readable memory
     * @param byteSize how many bytes lie there
     * @return a view of {@code byteSize} bytes at {@code pointer}
     */
    public static MemorySegment bytes(MemorySegment pointer, long byteSize) {
        return pointer.reinterpret(byteSize);
    }

    /**
     * @param pointer a pointer to a C struct
     * @param layout  the struct's layout
     * @return a view of the struct
     */
    public static MemorySegment struct(MemorySegment pointer, MemoryLayout layout) {
        return pointer.reinterpret(layout.byteSize());
    }

    /**
     * @param pointer a pointer to a C array of pointers ({@code void**})
     * @param count   how many pointers it holds
     * @return a view of the {@code count} pointers
     */
    public static MemorySegment pointers(MemorySegment pointer, long count) {
        return pointer.reinterpret(count * ADDRESS.byteSize());
    }

    /**
     * Checks memory a caller hands over for a struct to be written into, before anything changes.
     *
     * @param target native memory for the struct: a sized segment of at least the struct's size, or a
     *               zero-length segment made from a raw address (whose size the caller vouches for)
     * @param layout the struct's layout
     * @param name   the parameter's name, for messages
     * @return the struct's address
     * @throws IllegalArgumentException if {@code target} is NULL, heap memory, or smaller than the struct
     */
    public static long writableStructAddress(MemorySegment target, MemoryLayout layout, String name) {
        checkWritableStruct(target, layout, name);
        return target.address();
    }

    private static void checkWritableStruct(MemorySegment target, MemoryLayout layout, String name) {
        if (target == null || target.equals(MemorySegment.NULL)) {
            throw new IllegalArgumentException(name + " is NULL; it must point to " + layout.byteSize() + " writable bytes");
        }
        if (!target.isNative()) {
            throw new IllegalArgumentException(name + " is Java heap memory; C structs live in native memory (allocate it in an Arena)");
        }
        if (target.isReadOnly()) {
            throw new IllegalArgumentException(name + " is read-only");
        }
        if (target.byteSize() != 0 && target.byteSize() < layout.byteSize()) {
            throw new IllegalArgumentException(name + " holds " + target.byteSize() + " bytes but the struct needs " + layout.byteSize());
        }
    }
}
