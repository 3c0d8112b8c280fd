package dev.quiver;

import dev.quiver.internal.access.ApiAccess;
import dev.quiver.internal.backend.HostMemory;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;

/**
 * The devices of this process: the backends found by {@link ServiceLoader}, probed lazily, ranked and
 * filtered by a {@link BackendSelection}.
 *
 * <p>Nothing native happens until the first call that needs devices, and then only what that call needs:
 * {@link #get}, {@link #find} and {@link #cpu()} probe the providers that serve the device type asked for,
 * the listings ({@link #report()}, {@link #all()}, {@link #ranked()}) probe every allowed provider, in
 * parallel. Each provider is probed at most once and its result kept. When two usable providers serve one
 * device type, the one with the higher {@link DeviceProvider#priority()} serves it (ties: the first by name). Every device is served behind the
 * argument checks common to all backends (see {@link Device#backend()}), vendor plugins' included. Each
 * provider's outcome is logged at {@code DEBUG} on the {@code dev.quiver.devices} {@link System.Logger},
 * one line with its status, reasons or device count, and the time its probe took. Thread-safe.
 *
 * {@snippet class=dev.quiver.snippets.ApiSnippets region=report}
 */
public final class Devices {
    private static final System.Logger LOG = System.getLogger("dev.quiver.devices");
    private static volatile Devices system;

    /** Every provider found, in name order; those that failed to load last. */
    private final List<ProviderProbe> probes;
    private volatile List<ProviderReport> reports;
    /** The CPU device where no chosen backend serves the CPU, made on first use. */
    private volatile Device builtInCpu;

    private Devices(List<DeviceProvider> providers, List<Throwable> loadErrors, BackendSelection selection) {
        List<ProviderProbe> found = new ArrayList<>();
        for (DeviceProvider provider : providers) {
            found.add(ProviderProbe.of(provider, selection, (name, backend) -> new Device(name, backend, this)));
        }
        // not Comparator.comparing: its comparator is serializable, a lambda no ahead-of-time cache keeps
        found.sort((a, b) -> a.name().compareTo(b.name()));
        for (Throwable error : loadErrors) {
            found.add(ProviderProbe.failed(error));
        }
        this.probes = List.copyOf(found);
    }

    static {
        ApiAccess.install(new ApiAccess.Access<Device, BackendSelection, Devices>() {
            @Override
            public BackendDevice backend(Device device) {
                return device.backend();
            }

            @Override
            public Devices devices(List<? extends DeviceProvider> providers, BackendSelection selection) {
                return new Devices(List.copyOf(providers), List.of(), selection);
            }

            @Override
            public Devices devicesOf(Device device) {
                return device.devices();
            }
        }, DriverFailures::translate, ArrayInternals.access());
    }

    private static final Devices CPU_ONLY = new Devices(List.of(), List.of(), BackendSelection.all());

    /** {@return the process-wide devices, from the class path or module path, selected by the environment} */
    public static Devices system() {
        Devices result = system;
        if (result == null) {
            synchronized (Devices.class) {
                result = system;
                if (result == null) {
                    List<DeviceProvider> providers = new ArrayList<>();
                    List<Throwable> errors = new ArrayList<>();
                    load(providers, errors);
                    result = new Devices(providers, errors, BackendSelection.fromEnvironment());
                    system = result;
                }
            }
        }
        return result;
    }

    /**
     * {@return devices with no backend at all: only the API's own CPU device ({@link #cpu()}), which needs none}
     * Arrays built or imported with them live in host memory; events and copies to other devices are refused.
     */
    public static Devices cpuOnly() {
        return CPU_ONLY;
    }

    /** {@return one entry per provider found, in name order, each probed unless excluded} */
    public List<ProviderReport> report() {
        List<ProviderReport> result = reports;
        if (result == null) {
            synchronized (this) {
                result = reports;
                if (result == null) {
                    ParallelProbes.probeAll(probes);
                    result = ProviderReports.of(probes);
                    reports = result;
                }
            }
        }
        return result;
    }

    /** {@return every device of every chosen, usable provider} */
    public List<Device> all() {
        return report().stream().flatMap(r -> r.devices().stream()).toList();
    }

    /**
     * Probes only the providers that serve {@code type}.
     *
     * @param type a device type
     * @param id   a device id (-1 for the CPU)
     * @return the device, if a chosen provider serves it
     */
    public Optional<Device> find(DeviceType type, long id) {
        return ProviderReports.devicesOf(serving(type), type).stream().filter(d -> d.id() == id).findFirst();
    }

    /**
     * Probes only the providers that serve {@code type}.
     *
     * @param type a device type
     * @param id   a device id (-1 for the CPU)
     * @return the device
     * @throws NoBackendException saying which providers serve the type and why none is usable
     */
    public Device get(DeviceType type, long id) {
        return find(type, id).orElseThrow(() -> new NoBackendException(type, id, missing(type, id)));
    }

    /**
     * Finds a device by the name {@code quiver devices} lists it under and the CLI's {@code --device} takes: its
     * type in any case, optionally {@code :ID} ({@code cpu}, {@code opencl}, {@code vulkan:1}). A type alone names
     * the type's device 0; any name of type CPU names {@link #cpu()}. Probes only the providers that serve the type.
     *
     * @param name a device's name
     * @return the device
     * @throws IllegalArgumentException saying what is wrong: no such device type, an id that is not a number, or no
     *                                  such device on this machine
     */
    public Device named(String name) {
        String[] parts = name.strip().split(":", 2);
        DeviceType type = DeviceType.byName(parts[0].toUpperCase(java.util.Locale.ROOT))
                .orElseThrow(() -> new IllegalArgumentException("no device type " + parts[0] + " (see quiver devices)"));
        long id;
        try {
            id = parts.length == 2 ? Long.parseLong(parts[1]) : 0;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(parts[1] + " is not a device id");
        }
        if (type.equals(DeviceType.CPU)) {
            return cpu();
        }
        return find(type, id).orElseThrow(() -> new IllegalArgumentException("no device "
                + type.name().toLowerCase(java.util.Locale.ROOT) + ":" + id + " on this machine (see quiver devices)"));
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
     *
     * @throws NoSuchElementException if no device is usable, with every provider's reasons
     */
    public Device preferred() {
        List<Device> ranked = ranked();
        if (ranked.isEmpty()) {
            throw new NoSuchElementException("no usable device; providers: " + report());
        }
        return ranked.getFirst();
    }

    /**
     * The best usable device that satisfies a condition, by {@link #ranked()}: where a library with kernels for
     * some device types only, or that needs events or host access, should compute.
     *
     * {@snippet class=dev.quiver.snippets.ApiSnippets region=best}
     *
     * @param condition what the device must satisfy, for example
     *                  {@code d -> d.type().equals(DeviceType.OPENCL) && d.supports(DeviceFeature.EVENTS)}
     * @return the best device that satisfies it, or empty if none does
     */
    public Optional<Device> best(java.util.function.Predicate<? super Device> condition) {
        java.util.Objects.requireNonNull(condition, "condition");
        for (Device device : ranked()) {
            if (condition.test(device)) {
                return Optional.of(device);
            }
        }
        return Optional.empty();
    }

    /** {@return the usable devices, best first, and why each other provider is not usable} */
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

    /**
     * {@return the CPU device, probing only the providers that serve the CPU} Where no chosen backend serves the
     * CPU (no {@code quiver-device-cpu}, or {@link #cpuOnly()}), the API's own host device: the JVM's memory,
     * from {@code java.lang.foreign}.
     */
    public Device cpu() {
        Optional<Device> served = find(DeviceType.CPU, -1);
        if (served.isPresent()) {
            return served.get();
        }
        Device builtIn = builtInCpu;
        if (builtIn == null) {
            synchronized (this) {
                builtIn = builtInCpu;
                if (builtIn == null) {
                    builtIn = new Device("built-in", HostMemory.device(), this);
                    builtInCpu = builtIn;
                }
            }
        }
        return builtIn;
    }

    /** {@return the loaded providers that serve {@code type}, in name order} */
    private List<ProviderProbe> serving(DeviceType type) {
        return probes.stream().filter(p -> p.loaded() && p.types().contains(type)).toList();
    }

    private String missing(DeviceType type, long id) {
        List<ProviderProbe> serving = serving(type);
        if (serving.isEmpty()) {
            return "no backend serves device type " + type + " (code " + type.code() + "); add a quiver-device-* jar for it";
        }
        List<String> why = ProviderReports.why(serving, type);
        String devices = ProviderReports.devicesOf(serving, type).stream().map(d -> Long.toString(d.id())).toList().toString();
        return "no " + type + " device " + id + " (devices of that type: " + devices + "); providers: " + String.join(", ", why);
    }

    private static void load(List<DeviceProvider> providers, List<Throwable> errors) {
        Iterator<DeviceProvider> it = ServiceLoader.load(DeviceProvider.class).iterator();
        while (true) {
            try {
                if (!it.hasNext()) {
                    break;
                }
                providers.add(it.next());
            } catch (ServiceConfigurationError e) {
                LOG.log(System.Logger.Level.WARNING, "a device provider failed to load", e);
                errors.add(e);
            }
        }
    }
}
