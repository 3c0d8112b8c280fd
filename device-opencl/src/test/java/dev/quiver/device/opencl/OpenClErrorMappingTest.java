package dev.quiver.device.opencl;

import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceException;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Optional;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every OpenCL status code maps to its C name, and real failures provoked on the driver arrive as
 * {@link OpenClException}s naming the call and the error; misuse of the SPI contract fails clearly before
 * OpenCL is called.
 */
class OpenClErrorMappingTest {

    @Test
    void everyCodeHasItsNameAndUnknownCodesAreSaidToBeUnknown() {
        for (OpenClError error : OpenClError.values()) {
            OpenClException e = new OpenClException("clSomething", error.code(), "");
            assertEquals(Optional.of(error), e.error());
            assertEquals(error.name(), e.errorName());
            assertEquals("clSomething", e.call());
            assertEquals(error.code(), e.code());
            assertEquals("clSomething failed: " + error.name() + " (" + error.code() + ")", e.getMessage());
            assertEquals(Optional.of(error), OpenClError.of(error.code()));
        }
        OpenClException unknown = new OpenClException("clOther", -9999, "while testing");
        assertEquals(Optional.empty(), unknown.error());
        assertEquals("clOther failed: unknown OpenCL error -9999 (-9999): while testing", unknown.getMessage());
        assertInstanceOf(DeviceException.class, unknown, "an OpenCL failure is a DeviceException");
    }

    @Test
    void anAllocationAboveTheMaximumIsInvalidBufferSize() {
        OpenClDevice device = OpenClTestDevices.first();
        long max = device.info().maxAllocation();
        OpenClException e = assertThrows(OpenClException.class, () -> device.allocate(max + 1, 64));
        assertEquals("clCreateBuffer", e.call());
        assertEquals(OpenClError.CL_INVALID_BUFFER_SIZE, e.error().orElseThrow(), e.getMessage());
        assertTrue(e.getMessage().contains("CL_INVALID_BUFFER_SIZE (-61)"), e.getMessage());
    }

    @Test
    void readingPastTheEndIsInvalidValue() {
        OpenClDevice device = OpenClTestDevices.first();
        MemorySegment buffer = device.allocate(64, 64);
        try (Arena arena = Arena.ofConfined()) {
            OpenClException e = assertThrows(OpenClException.class,
                    () -> device.copyToHost(buffer, 32, arena.allocate(64), device.defaultStream()));
            assertEquals("clEnqueueReadBuffer", e.call());
            assertEquals(OpenClError.CL_INVALID_VALUE, e.error().orElseThrow(), e.getMessage());
            assertTrue(e.getMessage().contains("64 bytes at offset 32"), e.getMessage());
        } finally {
            device.free(buffer);
        }
    }

    @Test
    void anOverlappingCopyIsMemCopyOverlap() {
        OpenClDevice device = OpenClTestDevices.first();
        MemorySegment buffer = device.allocate(64, 64);
        try {
            OpenClException e = assertThrows(OpenClException.class,
                    () -> device.copyWithinDevice(buffer, 0, buffer, 8, 16, device.defaultStream()));
            assertEquals("clEnqueueCopyBuffer", e.call());
            assertEquals(OpenClError.CL_MEM_COPY_OVERLAP, e.error().orElseThrow(), e.getMessage());
        } finally {
            device.free(buffer);
        }
    }

    @Test
    void aFailedEventIsReportedByWaitAndQuery() {
        OpenClDevice device = OpenClTestDevices.first();
        OpenCl cl = OpenClTestDevices.library();
        MemorySegment failed = cl.createUserEvent(device.context());
        try {
            assertEquals(0, cl.setUserEventStatus(failed, OpenClError.CL_OUT_OF_RESOURCES.code()));
            OpenClException waited = assertThrows(OpenClException.class, () -> device.waitEvent(failed));
            assertEquals("clWaitForEvents", waited.call());
            assertEquals(OpenClError.CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST, waited.error().orElseThrow());
            OpenClException queried = assertThrows(OpenClException.class, () -> device.isEventComplete(failed));
            assertEquals(OpenClError.CL_OUT_OF_RESOURCES, queried.error().orElseThrow(), queried.getMessage());
        } finally {
            assertEquals(0, cl.releaseEvent(failed));
        }
    }

    @Test
    void misuseOfTheContractFailsBeforeOpenClIsCalled() {
        OpenClDevice device = OpenClTestDevices.first();
        MemorySegment event = device.createEvent();
        try {
            IllegalStateException unrecorded = assertThrows(IllegalStateException.class, () -> device.waitEvent(event));
            assertTrue(unrecorded.getMessage().contains("never recorded"), unrecorded.getMessage());
            assertThrows(IllegalStateException.class, () -> device.streamWaitEvent(device.defaultStream(), event));
            device.recordEvent(event, device.defaultStream());
            IllegalStateException twice = assertThrows(IllegalStateException.class, () -> device.recordEvent(event, device.defaultStream()));
            assertTrue(twice.getMessage().contains("completes once"), twice.getMessage());
            device.waitEvent(event);
        } finally {
            device.destroyEvent(event);
        }
        assertThrows(IllegalArgumentException.class, () -> device.destroyEvent(event), "an event is destroyed once");
        MemorySegment buffer = device.allocate(8, 8);
        device.free(buffer);
        assertThrows(IllegalArgumentException.class, () -> device.free(buffer), "a buffer is freed once");
        assertThrows(IllegalArgumentException.class, () -> device.destroyStream(device.defaultStream()), "the default queue is borrowed");
        assertThrows(IllegalArgumentException.class, () -> device.synchronizeStream(MemorySegment.ofAddress(0x1234)), "unknown queue");
        // Alignment and size checks common to every backend live in the wrapper Devices puts around each device.
        dev.quiver.spi.BackendDevice checked = Backends.of(dev.quiver.Devices.system().get(dev.quiver.DeviceType.OPENCL, 0));
        assertThrows(IllegalArgumentException.class, () -> checked.allocate(8, 3), "alignment not a power of two");
        assertThrows(IllegalArgumentException.class, () -> device.allocate(8, 1L << 20), "alignment above the device's");
        assertThrows(IllegalArgumentException.class, () -> checked.allocate(-1, 8));
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment target = device.allocate(16, 8);
            try {
                assertThrows(IllegalArgumentException.class, () -> device.copyFromHost(MemorySegment.ofArray(new byte[16]), target, 0, MemorySegment.NULL),
                        "heap memory cannot be handed to a non-blocking copy");
                assertThrows(IllegalArgumentException.class, () -> device.copyToHost(target, -1, arena.allocate(4), MemorySegment.NULL));
            } finally {
                device.free(target);
            }
        }
    }
}
