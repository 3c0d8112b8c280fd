package dev.quiver;

import java.util.ArrayList;
import java.util.List;

/**
 * Which usable provider serves each device type (the highest priority; ties: the first by name), and the
 * reports and devices that follow from it. Probes the providers it is given, on the caller's thread, where
 * nobody probed them yet. Stateless; thread-safe.
 */
final class ProviderReports {
    private ProviderReports() {}

    /**
     * @param probes every provider, in name order (those that failed to load may follow)
     * @return one report per provider, in the same order
     */
    static List<ProviderReport> of(List<ProviderProbe> probes) {
        List<ProviderReport> reports = new ArrayList<>();
        for (ProviderProbe probe : probes) {
            ProviderProbe.Outcome outcome = probe.outcome();
            List<String> reasons = new ArrayList<>(outcome.reasons());
            List<Device> devices = new ArrayList<>();
            if (outcome.status() == ProviderReport.Status.USABLE) {
                for (DeviceType type : probe.types()) {
                    ProviderProbe winner = winner(probes, type);
                    if (winner != probe) {
                        reasons.add(servedBy(type, winner, probe));
                    }
                }
                for (Device device : outcome.devices()) {
                    if (probe.types().contains(device.type()) && winner(probes, device.type()) == probe) {
                        devices.add(device);
                    }
                }
            }
            reports.add(new ProviderReport(probe.name(), probe.className(), probe.types(), probe.priority(),
                    outcome.status(), reasons, devices, probe.setupHint()));
        }
        return List.copyOf(reports);
    }

    /**
     * @param serving the providers that serve {@code type}, in name order
     * @param type    a device type
     * @return the devices of that type of the provider that serves it, or none
     */
    static List<Device> devicesOf(List<ProviderProbe> serving, DeviceType type) {
        ProviderProbe winner = winner(serving, type);
        return winner == null ? List.of() : winner.outcome().devices().stream().filter(d -> d.type().equals(type)).toList();
    }

    /**
     * @param serving the providers that serve {@code type}, in name order
     * @param type    a device type
     * @return for each, {@code "name: STATUS (reasons)"}, with whom it yields {@code type} to
     */
    static List<String> why(List<ProviderProbe> serving, DeviceType type) {
        ProviderProbe winner = winner(serving, type);
        List<String> why = new ArrayList<>();
        for (ProviderProbe probe : serving) {
            ProviderProbe.Outcome outcome = probe.outcome();
            List<String> reasons = new ArrayList<>(outcome.reasons());
            if (outcome.status() == ProviderReport.Status.USABLE && winner != probe) {
                reasons.add(servedBy(type, winner, probe));
            }
            why.add(probe.name() + ": " + outcome.status() + (reasons.isEmpty() ? "" : " (" + String.join("; ", reasons) + ")"));
        }
        return why;
    }

    /** @return the usable provider of {@code probes} that serves {@code type}, or null */
    private static ProviderProbe winner(List<ProviderProbe> probes, DeviceType type) {
        ProviderProbe chosen = null;
        for (ProviderProbe probe : probes) {
            if (probe.types().contains(type) && probe.outcome().status() == ProviderReport.Status.USABLE
                    && (chosen == null || probe.priority() > chosen.priority())) {
                chosen = probe;
            }
        }
        return chosen;
    }

    private static String servedBy(DeviceType type, ProviderProbe winner, ProviderProbe probe) {
        return type + " is served by " + winner.name() + " (priority " + winner.priority() + " over " + probe.priority() + ")";
    }
}
