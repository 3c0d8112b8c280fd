package dev.quiver.cli;

import dev.quiver.Device;
import dev.quiver.Devices;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;


/** Devices named on the command line as {@code TYPE[:ID]} ({@code cpu}, {@code opencl}, {@code vulkan:1}). */
public final class DeviceNames {
    private DeviceNames() {}

    /**
     * Finds the device an option names, or says why there is none as a usage error.
     *
     * @param spec    the command, for the usage error
     * @param option  the option, for the message (for example {@code --device})
     * @param name    what the user gave: a device type name, optionally {@code :ID}
     * @param devices where to look
     * @return the device
     * @throws ParameterException {@code "<option> <name>: <why>"} if there is no such device type or device
     */
    public static Device option(CommandSpec spec, String option, String name, Devices devices) {
        try {
            return parse(name, devices);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), option + " " + name + ": " + e.getMessage());
        }
    }

    /**
     * Finds a device by its command-line name ({@link Devices#named}).
     *
     * @param name    a device type name, as {@code quiver devices} prints it, optionally {@code :ID} (default 0)
     * @param devices where to look
     * @return the device
     * @throws IllegalArgumentException if there is no such device type or device
     */
    public static Device parse(String name, Devices devices) {
        return devices.named(name);
    }
}
