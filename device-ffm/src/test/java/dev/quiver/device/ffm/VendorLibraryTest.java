package dev.quiver.device.ffm;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Loading vendor libraries by name and path, with the C library standing in for a vendor library. */
class VendorLibraryTest {

    @Test
    void loadsTheFirstCandidateThatLoads() throws Exception {
        VendorLibrary loaded = VendorLibrary.loadFirst(List.of("libquiver-absent.so.9", "libc.so.6"));
        assertEquals("libc.so.6", loaded.library());
        assertTrue(loaded.lookup().find("malloc").isPresent());
    }

    @Test
    void theCLibraryNeedsNoLoadingAndNamesWhatItLacks() throws Exception {
        VendorLibrary c = VendorLibrary.cLibrary();
        assertTrue(c.lookup().find("posix_memalign").isPresent());
        VendorLibrary.NotFoundException e = assertThrows(VendorLibrary.NotFoundException.class, () -> c.symbol("quiver_absent"));
        assertEquals("the C library has no quiver_absent", e.getMessage());
    }

    @Test
    void saysWhichCandidatesWereNotFound() {
        VendorLibrary.NotFoundException e = assertThrows(VendorLibrary.NotFoundException.class,
                () -> VendorLibrary.loadFirst(List.of("libquiver-absent.so.9", "/nonexistent/libquiver.so")));
        assertEquals("libquiver-absent.so.9, /nonexistent/libquiver.so not found", e.getMessage());
    }
}
