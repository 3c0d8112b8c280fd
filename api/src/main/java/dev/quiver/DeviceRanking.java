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
 * named come after those named, by code. Within a type, devices go by id.
 *
 * <p>The system property {@value #PROPERTY} (or the environment variable {@value #ENVIRONMENT}) overrides the
 * order with a comma-separated list of device type names, for example {@code opencl,cpu}; types it does not
 * name follow in the default order. Immutable; thread-safe.
 */
public final class DeviceRanking {
    /** The system property that overrides the ranking. */
    public static final String PROPERTY = "quiver.deviceRanking";
    /** The environment variable that overrides the ranking when the property is not set. */
    public static final String ENVIRONMENT = "QUIVER_DEVICE_RANKING";

    private static final List<DeviceType> DEFAULT = List.of(DeviceType.CUDA, DeviceType.ROCM, DeviceType.ONEAPI,
            DeviceType.METAL, DeviceType.VULKAN, DeviceType.OPENCL, DeviceType.CUDA_MANAGED, DeviceType.CUDA_HOST,
            DeviceType.ROCM_HOST, DeviceType.CPU);

    private final List<DeviceType> order;

    private DeviceRanking(List<DeviceType> order) {
        this.order = List.copyOf(order);
    }

    /** {@return the default ranking} */
    public static DeviceRanking defaults() {
        return new DeviceRanking(DEFAULT);
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
        return new DeviceRanking(order);
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
        return devices.stream().sorted(Comparator.comparingInt((Device d) -> position(d.type()))
                .thenComparingInt(d -> d.type().code()).thenComparingLong(Device::id)).toList();
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
