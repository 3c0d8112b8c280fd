package dev.quiver.device.cpu;

import dev.quiver.device.ffm.CFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every C library function this backend calls: its FFM descriptor and its C declaration as {@code stdlib.h}
 * and {@code string.h} spell it (parameter names and {@code restrict} left out). This table is the only place
 * a downcall is declared: the bindings are made from it ({@link dev.quiver.device.ffm.VendorLibrary#bindAll}),
 * and a test compiles the declarations against the system headers. {@code size_t} is {@code JAVA_LONG},
 * pointers are {@code ADDRESS}.
 */
enum LibCFunction implements CFunction.Table {
    posix_memalign, free, memcpy;

    /** @return the declaration as the C library's headers spell it and how FFM calls it */
    @Override
    public CFunction c() {
        return switch (this) {
            case posix_memalign -> CFunction.of("int posix_memalign(void **, size_t, size_t)", JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG);
            case free -> CFunction.ofVoid("void free(void *)", ADDRESS);
            case memcpy -> CFunction.of("void *memcpy(void *, const void *, size_t)", ADDRESS, ADDRESS, ADDRESS, JAVA_LONG);
        };
    }
}
