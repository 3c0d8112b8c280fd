package dev.quiver.device.ffm;

import org.junit.jupiter.api.Test;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Upcall stubs called back through a downcall, as a vendor library calls a backend's callback. */
class UpcallsTest {
    private static final FunctionDescriptor INT_TO_INT = FunctionDescriptor.of(JAVA_INT, JAVA_INT);

    private final int factor = 3;

    private int times(int value) {
        return value * factor;
    }

    @Test
    void aStubCallsTheMethodOfItsReceiver() throws Throwable {
        MemorySegment stub = Upcalls.of(MethodHandles.lookup(), this, "times", INT_TO_INT);
        MethodHandle callback = Linker.nativeLinker().downcallHandle(stub, INT_TO_INT);
        assertEquals(42, (int) callback.invokeExact(14));
    }

    @Test
    void aMethodOfAnotherTypeIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Upcalls.of(MethodHandles.lookup(), this, "times", FunctionDescriptor.ofVoid(JAVA_INT)));
        assertTrue(e.getMessage().startsWith(UpcallsTest.class.getName() + ".times cannot be the upcall"), e.getMessage());
    }
}
