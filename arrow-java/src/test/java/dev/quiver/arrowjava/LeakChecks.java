package dev.quiver.arrowjava;

import dev.quiver.Diagnostics;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Gives each test a fresh Arrow Java allocator and checks, after it, that everything was released: the
 * allocator holds no memory (and closes cleanly), Quiver has no live exports beyond those before the test,
 * and no release callback failed. Public for the tests of modules built on this one.
 */
public abstract class LeakChecks {
    /** The allocator of the running test, made before it and closed (checked empty) after it. */
    protected BufferAllocator allocator;
    private long exportsBefore;
    private long callbackFailuresBefore;

    /** For subclasses: each test class gets the checks by extending this one. */
    protected LeakChecks() {}

    @BeforeEach
    void openAllocator() {
        allocator = new RootAllocator();
        exportsBefore = Diagnostics.liveExports();
        callbackFailuresBefore = Diagnostics.callbackFailures();
    }

    @AfterEach
    void everythingReleased() {
        assertEquals(0, allocator.getAllocatedMemory(), "Arrow Java memory still allocated:\n" + allocator.toVerboseString());
        allocator.close();
        assertEquals(exportsBefore, Diagnostics.liveExports(), "Quiver exports whose release was not called");
        assertEquals(callbackFailuresBefore, Diagnostics.callbackFailures(), "release callbacks that failed");
    }
}
