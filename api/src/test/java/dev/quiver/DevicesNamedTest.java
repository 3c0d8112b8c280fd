package dev.quiver;

import dev.quiver.plugin.Backends;
import dev.quiver.testsupport.HostProvider;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Devices found by the names {@code quiver devices} lists, and what is wrong with a name that finds none. */
class DevicesNamedTest {
    private static final Devices DEVICES = Backends.devices(List.of(HostProvider.host()), BackendSelection.all());

    @Test
    void aTypeInAnyCaseWithOrWithoutAnIdNamesItsDevice() {
        assertSame(DEVICES.cpu(), DEVICES.named("cpu"));
        assertSame(DEVICES.cpu(), DEVICES.named("CPU:-1"));
        assertSame(DEVICES.cpu(), DEVICES.named(" Cpu:0 "), "any name of type CPU is the CPU");
    }

    @Test
    void aNameThatFindsNoDeviceSaysWhy() {
        assertEquals("no device type tpu (see quiver devices)", message("tpu:0"));
        assertEquals("first is not a device id", message("opencl:first"));
        assertEquals("no device opencl:7 on this machine (see quiver devices)", message("OpenCL:7"));
        assertEquals("no device vulkan:0 on this machine (see quiver devices)", message("vulkan"));
    }

    private static String message(String name) {
        return assertThrows(IllegalArgumentException.class, () -> DEVICES.named(name)).getMessage();
    }
}
