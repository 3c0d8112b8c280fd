package dev.quiver.check;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * What {@link Conformance} found: every violation, in the order found, every warning (a recommendation of
 * the spec not followed), what was examined, and notes on what could not be checked here (for example an
 * event with no backend to ask). Immutable.
 *
 * @param violations every broken rule; empty when the producer conforms
 * @param warnings   every {@linkplain Rule#advisory() advisory} rule not followed; they do not make the
 *                   producer non-conforming
 * @param checked    what was examined, one line each (for example {@code ArrowDeviceArray CPU:-1, length 5})
 * @param notes      limits of the check that are not violations
 */
public record ConformanceReport(List<Violation> violations, List<Violation> warnings, List<String> checked,
                                List<String> notes) {
    /** Copies the lists. */
    public ConformanceReport {
        violations = List.copyOf(violations);
        warnings = List.copyOf(warnings);
        checked = List.copyOf(checked);
        notes = List.copyOf(notes);
    }

    /**
     * A report of one violation found outside the checked struct: the producer crashed or hung the process
     * it ran in, so nothing else is known.
     *
     * @param violation what happened
     * @param notes     what else is known (the crash log's summary, for example)
     * @return the report
     */
    public static ConformanceReport of(Violation violation, List<String> notes) {
        return new ConformanceReport(List.of(violation), List.of(), List.of(), notes);
    }

    /** {@return true if no rule was broken} */
    public boolean conforming() {
        return violations.isEmpty();
    }

    /** {@return the ids of the rules broken, each once, in the order first found} */
    public Set<String> ruleIds() {
        Set<String> ids = new LinkedHashSet<>();
        for (Violation violation : violations) {
            ids.add(violation.rule().id());
        }
        return ids;
    }
}
