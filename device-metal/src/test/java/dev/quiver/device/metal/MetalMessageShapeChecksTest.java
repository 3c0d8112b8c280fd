package dev.quiver.device.metal;

import dev.quiver.device.ffm.CFunction;
import org.junit.jupiter.api.Test;

import java.lang.foreign.AddressLayout;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.ValueLayout;
import java.util.List;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Signature checks of the Metal bindings that hold without macOS and its SDK: every {@code objc_msgSend}
 * shape has one argument per colon of its selector after {@code (id self, SEL _cmd)}, and returns nothing, an
 * integer or a pointer, so that plain {@code objc_msgSend} is correct on x86_64 as well as arm64 (a struct
 * result would need {@code objc_msgSend_stret} on x86_64, a {@code long double} {@code objc_msgSend_fpret});
 * every C function's descriptor matches its prototype's arity and symbol.
 */
class MetalMessageShapeChecksTest {

    @Test
    void everyMessageShapeMatchesItsSelector() {
        for (MetalMessage message : MetalMessage.values()) {
            long colons = message.selector().chars().filter(c -> c == ':').count();
            assertEquals(colons, message.arguments().size(), message.selector() + ": one argument per colon");
            assertEquals(message.selector().replace(':', '_').replaceAll("_$", ""), message.name(),
                    "the constant is named after its selector");
            FunctionDescriptor descriptor = message.descriptor();
            assertEquals(List.<MemoryLayout>of(ADDRESS, ADDRESS), descriptor.argumentLayouts().subList(0, 2), message + ": (id self, SEL _cmd, ...)");
            assertEquals(message.arguments(), descriptor.argumentLayouts().subList(2, descriptor.argumentLayouts().size()));
            descriptor.returnLayout().ifPresent(result -> assertTrue(result instanceof AddressLayout
                    || result instanceof ValueLayout value && (value.carrier() == long.class || value.carrier() == int.class),
                    message + " returns " + result + ": only pointers and integers go through plain objc_msgSend on x86_64"));
            for (MemoryLayout argument : message.arguments()) {
                assertTrue(argument instanceof ValueLayout value && value.carrier() != double.class && value.carrier() != float.class,
                        message + ": scalar, non-floating arguments only");
            }
        }
    }

    @Test
    void everyCFunctionMatchesItsPrototype() {
        for (ObjcFunction function : ObjcFunction.values()) {
            CFunction c = function.c();
            assertEquals(function.name(), c.symbol());
            String inside = c.prototype().substring(c.prototype().indexOf('(') + 1, c.prototype().lastIndexOf(')')).strip();
            int parameters = inside.equals("void") ? 0 : inside.split(",").length;
            assertEquals(parameters, c.descriptor().argumentLayouts().size(), c.prototype());
            assertEquals(c.prototype().matches("void \\w+\\(.*"), c.descriptor().returnLayout().isEmpty(), c.prototype());
        }
    }
}
