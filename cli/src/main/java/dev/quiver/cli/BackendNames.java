package dev.quiver.cli;

import dev.quiver.BackendSelection;
import dev.quiver.Devices;
import dev.quiver.ProviderReport;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The check of {@code QUIVER_BACKENDS} (or {@code -Dquiver.backends}) against the backends there are: a name no
 * backend has is a mistake (a typo would otherwise exclude every backend and pass silently). Stateless.
 */
final class BackendNames {
    private BackendNames() {}

    /**
     * @return a one-line message naming the unknown names and the backends there are, or empty when the selection
     *         names only known backends (or is not set)
     */
    static Optional<String> unknown() {
        if (System.getProperty(BackendSelection.PROPERTY) == null && System.getenv(BackendSelection.ENVIRONMENT) == null) {
            return Optional.empty();
        }
        BackendSelection selection = BackendSelection.fromEnvironment();
        Set<String> named = new LinkedHashSet<>(selection.chosen());
        named.addAll(selection.excluded());
        List<String> known = Devices.system().report().stream().map(ProviderReport::name).toList();
        List<String> unknown = new ArrayList<>(named);
        unknown.removeAll(known);
        if (unknown.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(BackendSelection.ENVIRONMENT + " names " + String.join(", ", unknown) + ", which "
                + (unknown.size() == 1 ? "is not a backend" : "are not backends") + " here; the backends are "
                + String.join(", ", known));
    }
}
