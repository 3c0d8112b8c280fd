package dev.quiver.device.ffm;

import dev.quiver.testkit.CLibrary;
import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Calls to functions that return a handle and write their result code through an out-parameter, as
 * OpenCL's constructors do, against the C function of {@code handle_constructor.c}.
 */
class HandleReturningCallsTest {
    enum Constructors { handle_create, free }

    private static final CLibrary C = CLibrary.fromResources(HandleReturningCallsTest.class, "handle_constructor.c");
    private static final Linker LINKER = Linker.nativeLinker();

    private final Bindings<Constructors> bindings = new Bindings<>(new MethodHandle[] {
        C.function("handle_create", FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS)),
        LINKER.downcallHandle(LINKER.defaultLookup().find("free").orElseThrow(), FunctionDescriptor.ofVoid(ADDRESS)),
    }, 0, (calls, function, result) -> new IllegalStateException(function + " wrote " + result));

    @Test
    void theHandleIsReturnedWhenTheCodeIsSuccess() {
        MemorySegment handle = bindings.handleReturned(Constructors.handle_create,
                (h, status) -> (MemorySegment) h.invokeExact(0, status));
        assertNotEquals(MemorySegment.NULL, handle);
        Bindings.invoke(bindings.handle(Constructors.free), h -> {
            h.invokeExact(handle);
            return 0;
        });
    }

    @Test
    void aWrittenErrorCodeBecomesTheBackendsExceptionOrIsReturnedUnchecked() {
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> bindings.handleReturned(
                Constructors.handle_create, (h, status) -> (MemorySegment) h.invokeExact(-34, status)));
        assertEquals("handle_create wrote -34", e.getMessage());
        Bindings.Returned returned = bindings.returned(Constructors.handle_create,
                (h, status) -> (MemorySegment) h.invokeExact(-61, status));
        assertEquals(new Bindings.Returned(MemorySegment.NULL, -61), returned);
    }
}
