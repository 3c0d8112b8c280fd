package dev.quiver.device.ffm;

import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Calls through bound handles and their result codes, with two C library functions that return an
 * {@code int} status as vendor APIs do: {@code posix_memalign} (0 on success, an errno otherwise, writes a
 * pointer) and {@code gethostname} (writes a string).
 */
class BindingsTest {
    enum LibC { posix_memalign, gethostname, free }

    private static final Linker LINKER = Linker.nativeLinker();

    private static MethodHandle bind(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LINKER.defaultLookup().find(name).orElseThrow(), descriptor);
    }

    private final Bindings<LibC> libc = new Bindings<>(new MethodHandle[] {
        bind("posix_memalign", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, JAVA_LONG)),
        bind("gethostname", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG)),
        bind("free", FunctionDescriptor.ofVoid(ADDRESS)),
    }, 0, (calls, function, result) -> new IllegalStateException(function + " returned " + result));

    @Test
    void outParametersAreReturned() {
        MemorySegment memory = libc.handleOut(LibC.posix_memalign, (h, out) -> (int) h.invokeExact(out, 64L, 128L));
        assertEquals(0, memory.address() % 64);
        Bindings.invoke(libc.handle(LibC.free), h -> {
            h.invokeExact(memory);
            return 0;
        });
        String host = libc.stringOut(LibC.gethostname, 256, (h, out) -> (int) h.invokeExact(out, 256L));
        assertTrue(!host.isEmpty());
    }

    @Test
    void functionsWithoutAResultCodeRun() {
        MemorySegment memory = libc.handleOut(LibC.posix_memalign, (h, out) -> (int) h.invokeExact(out, 64L, 128L));
        libc.run(LibC.free, h -> {
            h.invokeExact(memory);
        });
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> libc.run(LibC.free, h -> {
            throw new java.io.IOException("checked");
        }));
        assertEquals("checked", e.getCause().getMessage(), "a checked exception is wrapped, as in every call");
    }

    @Test
    void aFailedCallBecomesTheBackendsException() {
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> libc.handleOut(LibC.posix_memalign, (h, out) -> (int) h.invokeExact(out, 3L, 128L)));
        assertEquals("posix_memalign returned 22", e.getMessage(), "EINVAL: alignment not a power of two");
        assertEquals(22, libc.result(LibC.posix_memalign, h -> (int) h.invokeExact(MemorySegment.NULL, 3L, 8L)));
    }
}
