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
    private final boolean checking;
    private final CheckedReads reads;

    ThrowingFaults(BiFunction<String, String, ? extends RuntimeException> invalid, boolean checking) {
        this.invalid = invalid;
        this.checking = checking;
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
        return checking;
    }

    @Override
    public long readableBytes(MemorySegment pointer, long max) {
        return checking ? reads.readableBytes(pointer.address(), max) : max;
    }

    @Override
    public long readableBytes(long address, long max) {
        return checking ? reads.readableBytes(address, max) : max;
    }

    @Override
    public boolean canRead(long address, long bytes) {
        return !checking || reads.canRead(address, bytes);
    }
}
