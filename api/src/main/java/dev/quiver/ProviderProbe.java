package dev.quiver;

import dev.quiver.internal.backend.CheckedBackendDevice;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ProbeResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BiFunction;
import java.util.Locale;
import java.util.Optional;

/**
 * One provider the loader found (or the error that stopped it loading), probed at most once, when first
 * needed: its status, the reasons for it, and its devices, each served behind the common argument checks.
 * Each outcome is logged once at {@code DEBUG} on the {@code dev.quiver.devices} {@link System.Logger}: the
 * provider, its status, the time its probe took, and its reasons or device count. Thread-safe: a second
 * thread asking while the probe runs waits for its outcome.
 */
final class ProviderProbe {
    private static final System.Logger LOG = System.getLogger("dev.quiver.devices");

    private final DeviceProvider provider;
    private final Throwable loadError;
    private final List<DeviceType> types;
    private final Optional<String> refusal;
    /** Makes the API's device of a backend device, given its provider's name; the devices it belongs to decide. */
    private final BiFunction<String, BackendDevice, Device> wrap;
    private final System.Logger log;
    private Outcome outcome;

    /**
     * What probing found.
     *
     * @param status  usable or not
     * @param reasons why, as the provider or the selection said
     * @param devices every device the provider found, wrapped, whether or not it serves its type
     */
    record Outcome(ProviderReport.Status status, List<String> reasons, List<Device> devices) {}

    private ProviderProbe(DeviceProvider provider, Throwable loadError, BackendSelection selection, BiFunction<String, BackendDevice, Device> wrap, System.Logger log) {
        this.provider = provider;
        this.loadError = loadError;
        this.types = provider == null ? List.of() : Arrays.stream(provider.deviceTypes()).mapToObj(DeviceType::of).toList();
        this.refusal = provider == null ? Optional.empty() : selection.refusal(provider.name());
        this.wrap = wrap;
        this.log = log;
    }

    /**
     * @param provider  a loaded provider
     * @param selection which providers are allowed
     * @param wrap      makes a device of the devices it belongs to from a provider's name and a checked backend device
     * @return its probe, not run yet
     */
    static ProviderProbe of(DeviceProvider provider, BackendSelection selection, BiFunction<String, BackendDevice, Device> wrap) {
        return of(provider, selection, wrap, LOG);
    }

    /**
     * @param provider  a loaded provider
     * @param selection which providers are allowed
     * @param wrap      makes a device of the devices it belongs to from a provider's name and a checked backend device
     * @param log       where the outcome goes ({@code DEBUG}) and a provider that throws ({@code WARNING})
     * @return its probe, not run yet
     */
    static ProviderProbe of(DeviceProvider provider, BackendSelection selection, BiFunction<String, BackendDevice, Device> wrap, System.Logger log) {
        return new ProviderProbe(provider, null, selection, wrap, log);
    }

    /**
     * @param loadError why a provider failed to load
     * @return a probe that reports that failure
     */
    static ProviderProbe failed(Throwable loadError) {
        return new ProviderProbe(null, loadError, BackendSelection.all(), null, LOG);
    }

    /** @return whether the provider loaded */
    boolean loaded() {
        return provider != null;
    }

    /** @return whether probing would do work: a loaded provider the selection allows */
    boolean allowed() {
        return provider != null && refusal.isEmpty();
    }

    /** @return the provider's name, {@code "?"} if it failed to load */
    String name() {
        return provider == null ? "?" : provider.name();
    }

    /** @return the provider's class name, {@code "?"} if it failed to load */
    String className() {
        return provider == null ? "?" : provider.getClass().getName();
    }

    /** @return the provider's priority */
    int priority() {
        return provider == null ? 0 : provider.priority();
    }

    /** @return the device types the provider serves */
    List<DeviceType> types() {
        return types;
    }

    /** @return the outcome, probing now if nobody did yet */
    synchronized Outcome outcome() {
        if (outcome == null) {
            long start = System.nanoTime();
            outcome = run();
            logDecision(outcome, allowed() ? System.nanoTime() - start : -1);
        }
        return outcome;
    }

    /** @return what to install or set to make the provider usable; empty if it gives none or failed to load */
    String setupHint() {
        if (provider == null) {
            return "";
        }
        try {
            String hint = provider.setupHint();
            return hint == null ? "" : hint;
        } catch (RuntimeException e) {
            log.log(System.Logger.Level.WARNING, "setupHint of " + provider.name() + " threw", e);
            return "";
        }
    }

    private void logDecision(Outcome decided, long nanos) {
        if (!log.isLoggable(System.Logger.Level.DEBUG)) {
            return;
        }
        String took = nanos < 0 ? "not probed" : String.format(Locale.ROOT, "probed in %.1f ms", nanos / 1e6);
        String found = decided.status() == ProviderReport.Status.USABLE
                ? decided.devices().size() + " device(s)"
                : String.join("; ", decided.reasons());
        log.log(System.Logger.Level.DEBUG, "provider " + name() + ": " + decided.status() + ", " + took + ": " + found);
    }

    private Outcome run() {
        if (provider == null) {
            return new Outcome(ProviderReport.Status.FAILED, List.of("failed to load: " + loadError.getMessage()), List.of());
        }
        if (refusal.isPresent()) {
            return new Outcome(ProviderReport.Status.EXCLUDED, List.of(refusal.get()), List.of());
        }
        try {
            return switch (provider.probe()) {
                case ProbeResult.Available available -> new Outcome(ProviderReport.Status.USABLE, List.of(), wrap(available.devices()));
                case ProbeResult.Unavailable unavailable -> new Outcome(ProviderReport.Status.UNAVAILABLE, unavailable.reasons(), List.of());
            };
        } catch (RuntimeException | LinkageError e) {
            log.log(System.Logger.Level.WARNING, "probe of " + provider.name() + " threw", e);
            return new Outcome(ProviderReport.Status.FAILED, List.of("probe threw " + e), List.of());
        }
    }

    private List<Device> wrap(List<BackendDevice> devices) {
        List<Device> wrapped = new ArrayList<>(devices.size());
        for (BackendDevice device : devices) {
            wrapped.add(wrap.apply(provider.name(), CheckedBackendDevice.of(device)));
        }
        return List.copyOf(wrapped);
    }
}
