package dev.quiver.device.metal;

import dev.quiver.device.ffm.CFunction;

import static java.lang.foreign.ValueLayout.ADDRESS;

/**
 * The C functions this backend calls: the Objective-C runtime ({@code libobjc.A.dylib}) and Metal's one C
 * entry point. {@code objc_msgSend} is not in this table: it has no C signature of its own and is called
 * through one downcall shape per selector signature ({@link MetalMessage}).
 */
enum ObjcFunction implements CFunction.Table {
    sel_registerName(CFunction.of("SEL sel_registerName(const char *)", ADDRESS, ADDRESS)),
    objc_autoreleasePoolPush(CFunction.of("void * objc_autoreleasePoolPush(void)", ADDRESS)),
    objc_autoreleasePoolPop(CFunction.ofVoid("void objc_autoreleasePoolPop(void *)", ADDRESS)),
    MTLCreateSystemDefaultDevice(CFunction.of("id MTLCreateSystemDefaultDevice(void)", ADDRESS));

    private final CFunction c;

    ObjcFunction(CFunction c) {
        this.c = c;
    }

    @Override
    public CFunction c() {
        return c;
    }
}
