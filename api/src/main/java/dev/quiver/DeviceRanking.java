package dev.quiver;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The order in which {@link Devices#ranked()} and {@link Devices#preferred()} offer devices to a library that
 * lets Quiver choose where to compute. By default dedicated accelerators with their own memory come first,
 * then portable compute APIs, then memory the host shares, then the CPU:
 * {@code cuda, rocm, oneapi, metal, vulkan, opencl, cuda_managed, cuda_host, rocm_host, cpu}; device types not
 * named come after those named, by code. A CPU implementation of an accelerator's API (PoCL, lavapipe: a device
 * whose {@link DeviceKind} is {@code CPU}) comes after every device that is not one, whatever its type, since the
 * host's cores do its work however its API ranks; among those, OpenCL's come first ({@code opencl, oneapi, vulkan,
 * metal}, then the rest in the order above), since OpenCL CPU runtimes compile kernels for the host's vector units
 * where Vulkan's emulate a GPU. Within a type, devices go by what they are ({@link DeviceKind}: a discrete
 * GPU, an integrated one, an accelerator, a device that does not say, a CPU implementation of the API), then by
 * memory, then by compute units (more first), then by id. {@link #explain(Device)} says why a device stands
 * where it does.
 *
 * <p>The system property {@value #PROPERTY} (or the environment variable {@value #ENVIRONMENT}) overrides the
 * order with a comma-separated list of device type names, for example {@code opencl,cpu}; types it does not
 * name follow in the default order. An order given so is followed as it is: its CPU implementations rank by their
 * type like any other device. Immutable; thread-safe.
 */
public final class DeviceRanking {
    /** The system property that overrides the ranking. */
    public static final String PROPERTY = "quiver.deviceRanking";
    /** The environment variable that overrides the ranking when the property is not set. */
    public static final String ENVIRONMENT = "QUIVER_DEVICE_RANKING";

    private static final List<DeviceType> DEFAULT = List.of(DeviceType.CUDA, DeviceType.ROCM, DeviceType.ONEAPI,
            DeviceType.METAL, DeviceType.VULKAN, DeviceType.OPENCL, DeviceType.CUDA_MANAGED, DeviceType.CUDA_HOST,
            DeviceType.ROCM_HOST, DeviceType.CPU);

    /** The order of CPU implementations of accelerators' APIs in the default ranking, before the others'. */
    private static final List<DeviceType> CPU_IMPLEMENTATIONS = List.of(DeviceType.OPENCL, DeviceType.ONEAPI,
            DeviceType.VULKAN, DeviceType.METAL);

    private final List<DeviceType> order;
    /** Whether CPU implementations rank after every other device (the default) or by their type (an order given). */
    private final boolean cpuImplementationsLast;

    private DeviceRanking(List<DeviceType> order, boolean cpuImplementationsLast) {
        this.order = List.copyOf(order);
        this.cpuImplementationsLast = cpuImplementationsLast;
    }

    /** {@return the default ranking} */
    public static DeviceRanking defaults() {
        return new DeviceRanking(DEFAULT, true);
    }

    /**
     * {@return a ranking with those types first, then the others in the default order}
     * @param spec comma-separated device type names (case-insensitive), best first
     * @throws IllegalArgumentException naming an unknown device type name
     */
    public static DeviceRanking parse(String spec) {
        List<DeviceType> order = new ArrayList<>();
        for (String part : spec.split(",")) {
            String name = part.trim();
            if (name.isEmpty()) {
                continue;
            }
            DeviceType type = DEFAULT.stream().filter(t -> t.name().equalsIgnoreCase(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(PROPERTY + ": unknown device type \"" + name
                            + "\"; known: " + DEFAULT.stream().map(t -> t.name().toLowerCase(Locale.ROOT)).toList()));
            if (!order.contains(type)) {
                order.add(type);
            }
        }
        for (DeviceType type : DEFAULT) {
            if (!order.contains(type)) {
                order.add(type);
            }
        }
        return new DeviceRanking(order, false);
    }

    /** {@return the ranking the property or environment variable gives, else the default} */
    public static DeviceRanking fromEnvironment() {
        String spec = System.getProperty(PROPERTY);
        if (spec == null) {
            spec = System.getenv(ENVIRONMENT);
        }
        return spec == null || spec.isBlank() ? defaults() : parse(spec);
    }

    /** {@return the device types this ranking names, best first} */
    public List<DeviceType> order() {
        return order;
    }

    /**
     * {@return a new list of them, best first}
     * @param devices devices to order
     */
    public List<Device> rank(List<Device> devices) {
        List<Facts> facts = devices.stream().map(Facts::of).toList();
        return facts.stream().sorted(Comparator.comparingInt((Facts f) -> onTheHostsCores(f) ? 1 : 0)
                        .thenComparingInt(f -> onTheHostsCores(f) ? cpuPosition(f.device().type()) : position(f.device().type()))
                        .thenComparingInt(f -> f.device().type().code())
                        .thenComparingInt(f -> f.kind().ordinal())
                        .thenComparing(Comparator.comparingLong(Facts::memory).reversed())
                        .thenComparing(Comparator.comparingInt(Facts::computeUnits).reversed())
                        .thenComparingLong(f -> f.device().id()))
                .map(Facts::device).toList();
    }

    /**
     * {@return why a device stands where it does in this ranking}: its type's place in the order, what it is,
     * its memory and its compute units, for example
     * {@code "OPENCL:1 NVIDIA H200: opencl is 6th of 10 types; a discrete GPU; 139.8 GiB; 132 compute units"}
     * @param device a device
     */
    public String explain(Device device) {
        Facts facts = Facts.of(device);
        int at = position(device.type());
        String type = device.type().name().toLowerCase(Locale.ROOT);
        String place = at < order.size() ? type + " is " + ordinal(at + 1) + " of " + order.size() + " types"
                : type + " is not named, so after the " + order.size() + " named types";
        String kind = switch (facts.kind()) {
            case DISCRETE_GPU -> "a discrete GPU";
            case INTEGRATED_GPU -> "an integrated GPU";
            case ACCELERATOR -> "an accelerator";
            case CPU -> "a CPU";
            case OTHER -> "of a kind its driver does not say";
        };
        if (cpuImplementation(facts)) {
            kind += " implementation of " + type + ", so after every device that is not one (" + type + " is "
                    + ordinal(cpuPosition(device.type()) + 1) + " among them)";
        }
        String memory = facts.memory() < 0 ? "memory unknown" : gib(facts.memory());
        String units = facts.computeUnits() < 0 ? "compute units unknown" : facts.computeUnits() + " compute units";
        return device.type() + ":" + device.id() + " " + device.name() + ": " + place + "; " + kind + "; " + memory + "; " + units;
    }

    /** Whether this ranking puts {@code facts}' device with those that run on the host's cores, after every other. */
    private boolean onTheHostsCores(Facts facts) {
        return cpuImplementationsLast && (facts.kind() == DeviceKind.CPU || facts.device().type().equals(DeviceType.CPU));
    }

    /** Whether {@code facts}' device is a CPU implementation of an accelerator's API that this ranking puts last. */
    private boolean cpuImplementation(Facts facts) {
        return onTheHostsCores(facts) && !facts.device().type().equals(DeviceType.CPU);
    }

    /** {@return the place of a CPU implementation of {@code type} among the others} */
    private int cpuPosition(DeviceType type) {
        int at = CPU_IMPLEMENTATIONS.indexOf(type);
        return at >= 0 ? at : CPU_IMPLEMENTATIONS.size() + position(type);
    }

    private static String ordinal(int n) {
        String suffix = n % 100 >= 11 && n % 100 <= 13 ? "th" : switch (n % 10) {
            case 1 -> "st";
            case 2 -> "nd";
            case 3 -> "rd";
            default -> "th";
        };
        return n + suffix;
    }

    private static String gib(long bytes) {
        return String.format(Locale.ROOT, "%.1f GiB", bytes / (double) (1L << 30));
    }

    /** What the ranking reads from a device, once per ranking (the kind may ask the driver). */
    private record Facts(Device device, DeviceKind kind, long memory, int computeUnits) {
        static Facts of(Device device) {
            return new Facts(device, device.kind(), device.totalMemory(), device.computeUnits());
        }
    }

    private int position(DeviceType type) {
        int at = order.indexOf(type);
        return at < 0 ? order.size() : at;
    }

    @Override
    public String toString() {
        return "DeviceRanking" + order.stream().map(t -> t.name().toLowerCase(Locale.ROOT)).toList();
    }
}
