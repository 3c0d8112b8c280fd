package dev.quiver;

import dev.quiver.internal.backend.CheckedBackendDevice;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ProbeResult;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The devices of this process: the backends found by {@link ServiceLoader}, probed lazily, ranked and
 * filtered by a {@link BackendSelection}.
 *
 * <p>Nothing native happens until the first call that needs devices; then every allowed provider is probed
 * once and the result is kept. When two usable providers serve one device type, the one with the higher
 * {@link DeviceProvider#priority()} serves it (ties: the first by name). Every device is served behind the
 * argument checks common to all backends (see {@link Device#backend()}), vendor plugins' included.
 * Thread-safe.
 *
 * {@snippet class=dev.quiver.snippets.ApiSnippets region=report}
 */
public final class Devices {
    private static final System.Logger LOG = System.getLogger("dev.quiver.devices");
    private static volatile Devices system;

    private final List<Candidate> candidates;
    private final BackendSelection selection;
    private volatile Discovery discovery;

    private Devices(List<Candidate> candidates, BackendSelection selection) {
        this.candidates = candidates;
        this.selection = selection;
    }

    /** {@return the process-wide devices, from the class path or module path, selected by the environment} */
    public static Devices system() {
        Devices result = system;
        if (result == null) {
            synchronized (Devices.class) {
                result = system;
                if (result == null) {
                    result = new Devices(load(), BackendSelection.fromEnvironment());
                    system = result;
                }
            }
        }
        return result;
    }

    /**
     * {@return devices over exactly these providers}
     * @param providers providers to use, for example in tests or to bypass {@link ServiceLoader}
     * @param selection which of them are allowed
     */
    public static Devices of(List<? extends DeviceProvider> providers, BackendSelection selection) {
        List<Candidate> candidates = new ArrayList<>();
        for (DeviceProvider provider : providers) {
            candidates.add(new Candidate(provider, null));
        }
        return new Devices(candidates, selection);
    }

    /** {@return one entry per provider found, in name order, each probed unless excluded} */
    public List<ProviderReport> report() {
        return discover().reports;
    }

    /** {@return every device of every chosen, usable provider} */
    public List<Device> all() {
        return discover().reports.stream().flatMap(r -> r.devices().stream()).toList();
    }

    /**
     * {@return the device, if a chosen provider serves it}
     * @param type a device type
     * @param id   a device id (-1 for the CPU)
     */
    public Optional<Device> find(DeviceType type, long id) {
        return all().stream().filter(d -> d.type().equals(type) && d.id() == id).findFirst();
    }

    /**
     * {@return the device}
     * @param type a device type
     * @param id   a device id (-1 for the CPU)
     * @throws NoBackendException saying which providers serve the type and why none is usable
     */
    public Device get(DeviceType type, long id) {
        return find(type, id).orElseThrow(() -> new NoBackendException(type, id, missing(type, id)));
    }

    /**
     * {@return every usable device, best first by {@link DeviceRanking#fromEnvironment()} (the
     * {@value DeviceRanking#PROPERTY} property overrides the default order)}
     */
    public List<Device> ranked() {
        return DeviceRanking.fromEnvironment().rank(all());
    }

    /**
     * {@return the best usable device by {@link #ranked()}: where a library that lets Quiver choose should
     * compute}
     * @throws NoSuchElementException if no device is usable, with every provider's reasons
     */
    public Device preferred() {
        List<Device> ranked = ranked();
        if (ranked.isEmpty()) {
            throw new NoSuchElementException("no usable device; providers: " + report());
        }
        return ranked.getFirst();
    }

    /** @return the usable devices, best first, and why each other provider is not usable */
    @Override
    public String toString() {
        StringBuilder out = new StringBuilder("Devices[");
        List<String> parts = new ArrayList<>();
        for (Device device : ranked()) {
            parts.add(device.toString());
        }
        for (ProviderReport report : report()) {
            if (report.status() != ProviderReport.Status.USABLE) {
                parts.add(report.name() + " " + report.status() + (report.reasons().isEmpty() ? "" : " (" + String.join("; ", report.reasons()) + ")"));
            }
        }
        return out.append(String.join(", ", parts)).append(']').toString();
    }

    /** {@return the CPU device} */
    public Device cpu() {
        return get(DeviceType.CPU, -1);
    }

    private String missing(DeviceType type, long id) {
        List<String> why = new ArrayList<>();
        for (ProviderReport report : report()) {
            if (report.deviceTypes().contains(type)) {
                why.add(report.name() + ": " + report.status() + (report.reasons().isEmpty() ? "" : " (" + String.join("; ", report.reasons()) + ")"));
            }
        }
        String devices = all().stream().filter(d -> d.type().equals(type)).map(d -> Long.toString(d.id())).toList().toString();
        if (why.isEmpty()) {
            return "no backend serves device type " + type + " (code " + type.code() + "); add a quiver-device-* jar for it";
        }
        return "no " + type + " device " + id + " (devices of that type: " + devices + "); providers: " + String.join(", ", why);
    }

    private Discovery discover() {
        Discovery result = discovery;
        if (result == null) {
            synchronized (this) {
                result = discovery;
                if (result == null) {
                    result = Discovery.run(candidates, selection, this);
                    discovery = result;
                }
            }
        }
        return result;
    }

    private static List<Candidate> load() {
        List<Candidate> found = new ArrayList<>();
        Iterator<DeviceProvider> it = ServiceLoader.load(DeviceProvider.class).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                found.add(new Candidate(it.next(), null));
            } catch (ServiceConfigurationError e) {
                LOG.log(System.Logger.Level.WARNING, "a device provider failed to load", e);
                found.add(new Candidate(null, e));
            }
        }
        return found;
    }

    /** A provider found by the loader, or the error that stopped it loading. */
    private record Candidate(DeviceProvider provider, Throwable loadError) {}

    /** The probed, ranked state; computed once. */
    private record Discovery(List<ProviderReport> reports) {

        static Discovery run(List<Candidate> candidates, BackendSelection selection, Devices owner) {
            record Probed(DeviceProvider provider, List<DeviceType> types, ProviderReport.Status status,
                          List<String> reasons, List<BackendDevice> devices) {}
            List<Probed> probed = new ArrayList<>();
            List<ProviderReport> broken = new ArrayList<>();
            for (Candidate candidate : candidates) {
                if (candidate.provider() == null) {
                    broken.add(new ProviderReport("?", "?", List.of(), 0, ProviderReport.Status.FAILED,
                            List.of("failed to load: " + candidate.loadError().getMessage()), List.of()));
                    continue;
                }
                DeviceProvider provider = candidate.provider();
                List<DeviceType> types = Arrays.stream(provider.deviceTypes()).mapToObj(DeviceType::of).toList();
                Optional<String> refusal = selection.refusal(provider.name());
                if (refusal.isPresent()) {
                    probed.add(new Probed(provider, types, ProviderReport.Status.EXCLUDED, List.of(refusal.get()), List.of()));
                    continue;
                }
                try {
                    ProbeResult result = provider.probe();
                    switch (result) {
                        case ProbeResult.Available available ->
                                probed.add(new Probed(provider, types, ProviderReport.Status.USABLE, List.of(), available.devices()));
                        case ProbeResult.Unavailable unavailable ->
                                probed.add(new Probed(provider, types, ProviderReport.Status.UNAVAILABLE, unavailable.reasons(), List.of()));
                    }
                } catch (RuntimeException | LinkageError e) {
                    LOG.log(System.Logger.Level.WARNING, "probe of " + provider.name() + " threw", e);
                    probed.add(new Probed(provider, types, ProviderReport.Status.FAILED, List.of("probe threw " + e), List.of()));
                }
            }
            probed.sort(Comparator.comparing((Probed p) -> p.provider().name()));
            Map<DeviceType, Probed> chosen = new HashMap<>();
            for (Probed p : probed) {
                if (p.status() != ProviderReport.Status.USABLE) {
                    continue;
                }
                for (DeviceType type : p.types()) {
                    Probed current = chosen.get(type);
                    if (current == null || p.provider().priority() > current.provider().priority()) {
                        chosen.put(type, p);
                    }
                }
            }
            List<ProviderReport> reports = new ArrayList<>();
            for (Probed p : probed) {
                List<String> reasons = new ArrayList<>(p.reasons());
                List<Device> devices = new ArrayList<>();
                if (p.status() == ProviderReport.Status.USABLE) {
                    for (DeviceType type : p.types()) {
                        Probed winner = chosen.get(type);
                        if (winner != p) {
                            reasons.add(type + " is served by " + winner.provider().name() + " (priority "
                                    + winner.provider().priority() + " over " + p.provider().priority() + ")");
                        }
                    }
                    for (BackendDevice device : p.devices()) {
                        if (chosen.get(DeviceType.of(device.deviceType())) == p) {
                            devices.add(new Device(p.provider().name(), CheckedBackendDevice.of(device), owner));
                        }
                    }
                }
                reports.add(new ProviderReport(p.provider().name(), p.provider().getClass().getName(), p.types(),
                        p.provider().priority(), p.status(), reasons, devices));
            }
            reports.addAll(broken);
            return new Discovery(List.copyOf(reports));
        }
    }
}
