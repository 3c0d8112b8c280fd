package dev.quiver.device.ffm;

import dev.quiver.testkit.CLibrary;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Tables bound through a loader function shaped like {@code vkGetInstanceProcAddr}, the C function
 * {@code get_proc_address} of {@code proc_address_loader.c}: global functions for a NULL object, an object's
 * own functions for that object, result codes turned into the backend's exception, and what is missing named.
 */
class ProcAddressLoaderTest {
    /** Functions the loader returns for any object. */
    enum Global implements CFunction.Table {
        check_sign;

        @Override
        public CFunction c() {
            return CFunction.of("int check_sign(int)", JAVA_INT, JAVA_INT);
        }
    }

    /** Functions the loader returns only for an object. */
    enum OfCounter implements CFunction.Table {
        counter_add, counter_read;

        @Override
        public CFunction c() {
            return switch (this) {
                case counter_add -> CFunction.ofVoid("void counter_add(counter *, int)", ADDRESS, JAVA_INT);
                case counter_read -> CFunction.of("int counter_read(counter *, int *)", JAVA_INT, ADDRESS, ADDRESS);
            };
        }
    }

    private static final CLibrary C = CLibrary.fromResources(ProcAddressLoaderTest.class, "proc_address_loader.c");
    private static final CFunction LOADER = CFunction.of("void_function get_proc_address(void *, const char *)", ADDRESS, ADDRESS, ADDRESS);

    private static ProcAddressLoader loader() throws VendorLibrary.NotFoundException {
        VendorLibrary library = VendorLibrary.loadFirst(List.of(C.path().toString()));
        return ProcAddressLoader.find(library, LOADER);
    }

    private static <F extends Enum<F>> Bindings<F> bindings(Downcalls downcalls) {
        return new Bindings<>(downcalls, 0, (calls, function, result) -> new IllegalStateException(function + " returned " + result));
    }

    @Test
    void globalFunctionsAreBoundForNoObjectAndTheirCodesChecked() throws Exception {
        ProcAddressLoader loader = loader();
        assertEquals("get_proc_address", loader.name());
        Bindings<Global> global = bindings(loader.bindAll(MemorySegment.NULL, Global.class));
        global.check(Global.check_sign, h -> (int) h.invokeExact(7));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> global.check(Global.check_sign, h -> (int) h.invokeExact(-9)));
        assertEquals("check_sign returned -9", e.getMessage());
        assertEquals(-3, global.result(Global.check_sign, h -> (int) h.invokeExact(-3)));
    }

    @Test
    void anObjectsFunctionsAreBoundForThatObject() throws Exception {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment counter = arena.allocate(JAVA_INT);
            counter.set(JAVA_INT, 0, 40);
            Bindings<OfCounter> calls = bindings(loader().bindAll(counter, OfCounter.class));
            calls.run(OfCounter.counter_add, h -> {
                h.invokeExact(counter, 2);
            });
            assertEquals(42, counter.get(JAVA_INT, 0), "the C function updated the object");
            assertEquals(42, calls.intOut(OfCounter.counter_read, (h, out) -> (int) h.invokeExact(counter, out)));
        }
    }

    @Test
    void aFunctionTheLoaderDoesNotReturnIsNamed() throws Exception {
        ProcAddressLoader loader = loader();
        VendorLibrary.NotFoundException e = assertThrows(VendorLibrary.NotFoundException.class,
                () -> loader.bindAll(MemorySegment.NULL, OfCounter.class));
        assertEquals("get_proc_address(NULL, \"counter_add\") returned NULL", e.getMessage(),
                "an object's function is not returned without the object");
        MemorySegment object = MemorySegment.ofAddress(0x1000);
        e = assertThrows(VendorLibrary.NotFoundException.class, () -> loader.address(object, "quiver_absent"));
        assertEquals("get_proc_address(0x1000, \"quiver_absent\") returned NULL", e.getMessage());
        assertTrue(!loader.address(object, "check_sign").equals(MemorySegment.NULL));
    }

    @Test
    void onlyALoaderShapedDeclarationOrAnExportedOneIsTaken() throws Exception {
        VendorLibrary library = VendorLibrary.loadFirst(List.of(C.path().toString()));
        IllegalArgumentException shape = assertThrows(IllegalArgumentException.class,
                () -> ProcAddressLoader.find(library, Global.check_sign.c()));
        assertTrue(shape.getMessage().startsWith("int check_sign(int) is not a loader function"), shape.getMessage());
        VendorLibrary.NotFoundException missing = assertThrows(VendorLibrary.NotFoundException.class, () -> ProcAddressLoader.find(library,
                CFunction.of("void_function quiver_absent(void *, const char *)", ADDRESS, ADDRESS, ADDRESS)));
        assertEquals(C.path() + " has no quiver_absent", missing.getMessage());
        IllegalArgumentException nowhere = assertThrows(IllegalArgumentException.class,
                () -> ProcAddressLoader.at("vkGetDeviceProcAddr", MemorySegment.NULL));
        assertEquals("vkGetDeviceProcAddr is at NULL", nowhere.getMessage());
    }

    @Test
    void aLoaderAtARunTimeAddressBindsLikeAnExportedOne() throws Exception {
        ProcAddressLoader exported = loader();
        ProcAddressLoader atAddress = ProcAddressLoader.at("get_proc_address", C.symbol("get_proc_address"));
        assertEquals(exported.address(MemorySegment.NULL, "check_sign"), atAddress.address(MemorySegment.NULL, "check_sign"));
        Bindings<Global> global = bindings(atAddress.bindAll(MemorySegment.NULL, Global.class));
        assertEquals(-5, global.result(Global.check_sign, h -> (int) h.invokeExact(-5)));
    }
}
