package dev.quiver;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ProbeResult;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Probes one provider for discovery: runs its probe unless the selection excludes it, turns a probe that
 * throws into {@link ProviderReport.Status#FAILED}, and logs the decision at {@code DEBUG}, one line per
 * provider with the time its probe took. Stateless; safe from any thread (discovery calls it under its own
 * lock).
 */
final class ProviderProbe {
    private ProviderProbe() {}

    /**
     * What one provider's probe found. Immutable.
     *
     * @param provider the provider
     * @param types    the device types it serves
     * @param status   usable, unavailable, excluded or failed
     * @param reasons  why it is not usable (empty when usable)
     * @param devices  the devices it found (empty unless usable)
     * @param hint     what to install or set to make it usable; empty if it gives none
     */
    record Probed(DeviceProvider provider, List<DeviceType> types, ProviderReport.Status status,
                  List<String> reasons, List<BackendDevice> devices, String hint) {}

    /**
     * @param provider  a provider found by the loader or given by the caller
     * @param selection which providers may be probed
     * @param log       where the decision goes ({@code DEBUG}) and a provider that throws ({@code WARNING})
     * @return the outcome; never throws for a provider that breaks its contract
     */
    static Probed probe(DeviceProvider provider, BackendSelection selection, System.Logger log) {
        List<DeviceType> types = Arrays.stream(provider.deviceTypes()).mapToObj(DeviceType::of).toList();
        String hint = hintOf(provider, log);
        Optional<String> refusal = selection.refusal(provider.name());
        if (refusal.isPresent()) {
            Probed excluded = new Probed(provider, types, ProviderReport.Status.EXCLUDED, List.of(refusal.get()), List.of(), hint);
            logDecision(log, excluded, -1);
            return excluded;
        }
        long start = System.nanoTime();
        Probed probed;
        try {
            probed = switch (provider.probe()) {
                case ProbeResult.Available available ->
                        new Probed(provider, types, ProviderReport.Status.USABLE, List.of(), available.devices(), hint);
                case ProbeResult.Unavailable unavailable ->
                        new Probed(provider, types, ProviderReport.Status.UNAVAILABLE, unavailable.reasons(), List.of(), hint);
            };
        } catch (RuntimeException | LinkageError e) {
            log.log(System.Logger.Level.WARNING, "probe of " + provider.name() + " threw", e);
            probed = new Probed(provider, types, ProviderReport.Status.FAILED, List.of("probe threw " + e), List.of(), hint);
        }
        logDecision(log, probed, System.nanoTime() - start);
        return probed;
    }

    private static String hintOf(DeviceProvider provider, System.Logger log) {
        try {
            return provider.setupHint();
        } catch (RuntimeException e) {
            log.log(System.Logger.Level.WARNING, "setupHint of " + provider.name() + " threw", e);
            return "";
        }
    }

    /** Logs one line for {@code probed}; {@code nanos} is negative when nothing was probed. */
    private static void logDecision(System.Logger log, Probed probed, long nanos) {
        if (!log.isLoggable(System.Logger.Level.DEBUG)) {
            return;
        }
        String took = nanos < 0 ? "not probed" : String.format(Locale.ROOT, "probed in %.1f ms", nanos / 1e6);
        String outcome = probed.status() == ProviderReport.Status.USABLE
                ? probed.devices().size() + " device(s)"
                : String.join("; ", probed.reasons());
        log.log(System.Logger.Level.DEBUG, "provider " + probed.provider().name() + ": " + probed.status() + ", "
                + took + ": " + outcome);
    }
}
