package dev.quiver.internal.validate;

import dev.quiver.type.Field;

/**
 * How the validators avoid building field paths when nothing is wrong. With a sink that stops at the first
 * fault ({@link Faults#stopsAtFirst()}), a validator first walks with no path (null) and reports through
 * {@link #report}, which throws this exception at the first fault; only then does it walk again with paths,
 * to name the fault. Carries no stack trace. Immutable.
 */
final class FirstFault extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Fault fault;

    private FirstFault(Fault fault) {
        super(null, null, false, false);
        this.fault = fault;
    }

    /** @return the kind of fault found */
    Fault fault() {
        return fault;
    }

    /** A validator's walk of an ArrowArray tree from its root; {@code path} null means no paths. */
    @FunctionalInterface
    interface Walk {
        void walk(long array, Field field, String path, Faults faults);
    }

    /**
     * Runs a validator's walk: with a sink that stops at the first fault, first without paths and, only if
     * that finds a fault, again with paths to name it; with any other sink, once with paths.
     *
     * @param walk   the walk, a method reference that captures nothing (so nothing is allocated)
     * @param array  the address of the ArrowArray
     * @param field  its field
     * @param path   its path ({@code ""} at the root)
     * @param faults where faults go
     */
    static void run(Walk walk, long array, Field field, String path, Faults faults) {
        if (faults.stopsAtFirst()) {
            try {
                walk.walk(array, field, null, faults);
                return;
            } catch (FirstFault found) {
                walk.walk(array, field, path, faults);
                found.reportAgain(faults, path);
                return;
            }
        }
        walk.walk(array, field, path, faults);
    }

    /**
     * Reports a fault: to {@code faults} when the walk names paths, else by throwing this exception.
     *
     * @param faults  the sink
     * @param fault   what kind of fault
     * @param path    the field path, or null on a walk without paths
     * @param message what is wrong
     */
    static void report(Faults faults, Fault fault, String path, String message) {
        if (path == null) {
            throw new FirstFault(fault);
        }
        faults.report(fault, path, message);
    }

    /**
     * Checks a pointer to a C struct or pointer array, as {@link Faults#struct} does, reporting through
     * {@link #report}.
     *
     * @return true if the struct may be read
     */
    static boolean struct(Faults faults, long address, long size, String path) {
        if (address % Long.BYTES != 0) {
            report(faults, Fault.POINTER_UNREADABLE, path, Faults.unaligned(address));
            return false;
        }
        return readable(faults, address, size, path);
    }

    /**
     * Checks that {@code bytes} bytes at {@code address} may be read, as {@link Faults#readable} does,
     * reporting through {@link #report}.
     *
     * @return true if they may be read
     */
    static boolean readable(Faults faults, long address, long bytes, String path) {
        if (faults.canRead(address, bytes)) {
            return true;
        }
        report(faults, Fault.POINTER_UNREADABLE, path, faults.unreadableReason(address, bytes));
        return false;
    }

    /**
     * Reports, after a walk without paths found a fault that the walk with paths did not find again (the
     * structs changed in between), the fault first found, at the root.
     */
    void reportAgain(Faults faults, String path) {
        faults.report(fault, path == null || path.isEmpty() ? "(root)" : path,
                "was found faulty, then not faulty on a second look: the structs changed while they were validated");
    }
}
