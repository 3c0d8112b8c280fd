package dev.quiver.device.cpu;

import dev.quiver.device.ffm.CFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Every C library function this backend binds itself: its FFM descriptor and its C declaration as
 * {@code stdlib.h} and {@code sys/mman.h} spell it (parameter names left out). This table is the only place such a downcall is
 * declared: the bindings are made from it ({@link dev.quiver.device.ffm.VendorLibrary#bindAll}), and a test
 * compiles the declarations against the system headers. Copies call {@code memcpy} through
 * {@link dev.quiver.device.ffm.HostCopy}, which declares it. {@code size_t} is {@code JAVA_LONG},
 * pointers are {@code ADDRESS}.
 */
enum LibCFunction implements CFunction.Table {
    posix_memalign, free, madvise;

    /** @return the declaration as the C library's headers spell it and how FFM calls it */
    @Override
    public CFunction c() {
        return switch (this) {
            case posix_memalign -> CFunction.of("int posix_memalign(void **, size_t, size_t)", JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG);
            case free -> CFunction.ofVoid("void free(void *)", ADDRESS);
            case madvise -> CFunction.of("int madvise(void *, size_t, int)", JAVA_INT, ADDRESS, JAVA_LONG, JAVA_INT);
        };
    }
}
