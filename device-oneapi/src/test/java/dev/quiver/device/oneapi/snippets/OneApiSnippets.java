package dev.quiver.device.oneapi.snippets;

import dev.quiver.device.oneapi.SyclEventWaiters;

import java.lang.foreign.MemorySegment;

/** The example in the documentation of package {@code dev.quiver.device.oneapi}, compiled with the tests. */
final class OneApiSnippets {
    private OneApiSnippets() {}

    @SuppressWarnings("try")   // the example leaves the body to the reader
    static void register(MemorySegment syncEventPointer, SyclEventWaiters.Waiter mySyclWaiter) {
        // @start region="register"
        try (SyclEventWaiters.Registration r = SyclEventWaiters.register(syncEventPointer, mySyclWaiter)) {
            // import the array whose sync_event is syncEventPointer and use it (DeviceArray.importFrom,
            // copyToHost, ...): every wait on that event calls mySyclWaiter
        }
        // @end
    }
}
