package dev.quiver.check;

import dev.quiver.internal.abi.HostMappings;
import dev.quiver.internal.validate.Fault;
import dev.quiver.internal.validate.Faults;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The sink of one check: records every violation (each distinct one once), what was examined and notes,
 * and answers whether a pointer may be read from this process's memory map. Confined to the checking
 * thread, except {@link #report} which release wrappers may call from the producer's threads.
 */
final class Collector implements Faults {
    private final Set<Violation> violations = new LinkedHashSet<>();
    private final Set<Violation> warnings = new LinkedHashSet<>();
    private final List<String> checked = new ArrayList<>();
    private final Set<String> notes = new LinkedHashSet<>();
    private Optional<HostMappings> memory = HostMappings.snapshot();

    /** Records a violation of a rule, or a warning where the rule is {@linkplain Rule#advisory() advisory}. */
    synchronized void report(Rule rule, String path, String message) {
        (rule.advisory() ? warnings : violations).add(new Violation(rule, path, message));
    }

    @Override
    public void report(Fault fault, String path, String message) {
        report(Rule.of(fault), path, message);
    }

    /** @return how many violations were recorded so far */
    synchronized int violationCount() {
        return violations.size();
    }

    /** Records what was examined. */
    void checked(String what) {
        checked.add(what);
    }

    /** Records a limit of the check that is not a violation. */
    void note(String note) {
        notes.add(note);
    }

    /** Takes a new snapshot of the memory map, after the producer ran and may have mapped memory. */
    void refreshMemory() {
        memory = HostMappings.snapshot();
    }

    @Override
    public long readableBytes(MemorySegment pointer, long max) {
        if (memory.isEmpty()) {
            note("pointers were trusted: this system publishes no memory map (/proc/self/maps) to check them against");
            return max;
        }
        long readable = memory.get().readableBytes(pointer.address(), max);
        if (readable < max && !pointer.equals(MemorySegment.NULL)) {
            refreshMemory();
            readable = memory.map(m -> m.readableBytes(pointer.address(), max)).orElse(max);
        }
        return readable;
    }

    /**
     * @param function a callback pointer, not NULL
     * @param path     its field path
     * @return true if it points into executable memory; otherwise reports {@link Rule#POINTER_NOT_CODE}
     */
    boolean callable(MemorySegment function, String path) {
        if (memory.isEmpty() || memory.get().executable(function.address())) {
            return true;
        }
        refreshMemory();
        if (memory.map(m -> m.executable(function.address())).orElse(true)) {
            return true;
        }
        report(Rule.POINTER_NOT_CODE, path, "points to 0x" + Long.toHexString(function.address())
                + ", which is not executable memory: not called");
        return false;
    }

    /** @return the report so far */
    synchronized ConformanceReport report() {
        return new ConformanceReport(new ArrayList<>(violations), new ArrayList<>(warnings), checked, new ArrayList<>(notes));
    }
}
