package dev.quiver.testkit;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.ProbeResult;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The two ends of a child JVM that uses a device of this process's backend: the command that starts it on this
 * class path, and, in the child, the device of the same type and id that the same provider class finds there.
 * Stateless; thread-safe.
 */
final class PeerProcess {
    private PeerProcess() {}

    /**
     * {@return the command that runs {@code main} in a child JVM on this class path, with the provider, type and id
     * of {@code device} as its first three arguments, then {@code arguments}}
     * @param main       the class whose {@code main} the child runs
     * @param provider   the provider class the child finds the same device with
     * @param properties system properties the child's provider needs (the test double's library path)
     * @param device     the device whose type and id the child looks for
     * @param arguments  the rest of the arguments
     */
    static List<String> command(Class<?> main, Class<? extends DeviceProvider> provider, Map<String, String> properties,
                                BackendDevice device, List<String> arguments) {
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path")));
        properties.forEach((key, value) -> command.add("-D" + key + "=" + value));
        command.addAll(List.of(main.getName(), provider.getName(), Integer.toString(device.deviceType()),
                Long.toString(device.deviceId())));
        command.addAll(arguments);
        return command;
    }

    /**
     * In the child: makes the provider (first argument, by its no-argument constructor) and finds the device of
     * the type and id that follow.
     *
     * @param arguments the child's arguments, as {@link #command} gives them
     * @return the device
     * @throws ReflectiveOperationException if the provider cannot be made
     * @throws IllegalStateException        if the provider finds no such device
     */
    static BackendDevice device(String[] arguments) throws ReflectiveOperationException {
        DeviceProvider provider = Class.forName(arguments[0]).asSubclass(DeviceProvider.class).getConstructor().newInstance();
        int type = Integer.parseInt(arguments[1]);
        long id = Long.parseLong(arguments[2]);
        ProbeResult result = provider.probe();
        if (!(result instanceof ProbeResult.Available available)) {
            throw new IllegalStateException("the peer finds no devices: " + result);
        }
        return available.devices().stream().filter(d -> d.deviceType() == type && d.deviceId() == id)
                .findFirst().orElseThrow(() -> new IllegalStateException("the peer finds no device " + type + ":" + id));
    }
}
