package dev.quiver.internal.validate;

import dev.quiver.internal.abi.CheckedReads;

import java.lang.foreign.MemorySegment;
import java.util.function.BiFunction;

/**
 * The sink imports use: the first fault throws the caller's exception; pointers are trusted, or checked
 * against the process's readable mappings, each page confirmed with the kernel once per sink
 * ({@link CheckedReads}). A trusting sink is immutable and safe from any thread; a checking one is made for
 * one validation, on the validating thread.
 */
final class ThrowingFaults implements Faults {
    private final BiFunction<String, String, ? extends RuntimeException> invalid;
    /** The pages this sink confirmed readable; null for a trusting sink. */
    private final CheckedReads reads;

    ThrowingFaults(BiFunction<String, String, ? extends RuntimeException> invalid, boolean checking) {
        this.invalid = invalid;
        this.reads = checking ? new CheckedReads() : null;
    }

    @Override
    public void report(Fault fault, String path, String message) {
        throw invalid.apply(path, message);
    }

    @Override
    public boolean stopsAtFirst() {
        return true;
    }

    @Override
    public boolean checksPointers() {
        return reads != null;
    }

    @Override
    public long readableBytes(MemorySegment pointer, long max) {
        return readableBytes(pointer.address(), max);
    }

    @Override
    public long readableBytes(long address, long max) {
        return reads == null ? max : reads.readableBytes(address, max);
    }

    @Override
    public boolean canRead(long address, long bytes) {
        return reads == null || reads.canRead(address, bytes);
    }
}
