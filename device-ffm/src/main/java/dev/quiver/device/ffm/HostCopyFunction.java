package dev.quiver.device.ffm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C library function {@link HostCopy} calls: its FFM descriptor and its C declaration as {@code string.h}
 * spells it ({@code restrict} left out). A test compiles the declaration against the system header.
 */
enum HostCopyFunction implements CFunction.Table {
    memcpy;

    /** @return the declaration as the C library's header spells it and how FFM calls it */
    @Override
    public CFunction c() {
        return CFunction.of("void *memcpy(void *, const void *, size_t)", ADDRESS, ADDRESS, ADDRESS, JAVA_LONG);
    }
}
