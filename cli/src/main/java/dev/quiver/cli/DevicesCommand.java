package dev.quiver.cli;

import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.ProviderReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code quiver devices}: every backend found, its status with the reasons and what would enable it, and
 * its devices; in {@value DevicesText#WIDTH} columns ({@link DevicesText}), or as JSON for scripts
 * ({@link DevicesJson}); with {@code --spark-resource}, the JSON line of an Apache Spark resource discovery script
 * ({@link SparkDiscovery}).
 */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = "List backends, why each is or is not usable (and what would enable it), and their devices.")
final class DevicesCommand implements Callable<Integer> {

    @Option(names = {"-v", "--verbose"}, description = "add each device's details and each backend's device types and class")
    boolean verbose;

    @Option(names = "--json", description = "print everything as one line of JSON, for scripts")
    boolean json;

    @Option(names = "--spark-resource", paramLabel = "NAME",
            description = "print the devices as Apache Spark's discovery script of resource NAME: {\"name\":NAME,\"addresses\":[...]}")
    String sparkResource;

    @Option(names = "--type", paramLabel = "TYPE",
            description = "with --spark-resource, list the ids of this device type (\"0\"); default: every non-CPU device as TYPE:ID")
    String type;

    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        if (sparkResource != null || type != null) {
            System.out.println(SparkDiscovery.json(sparkResource(), deviceType(), Devices.system()));
            return 0;
        }
        List<ProviderReport> reports = Devices.system().report();
        if (json) {
            System.out.println(DevicesJson.of(VersionProvider.quiverVersion(), reports));
        } else {
            new DevicesText(verbose, Style.detect()).print(reports, System.out);
        }
        return 0;
    }

    /** @return the resource named, its combination with the other options checked */
    private String sparkResource() {
        if (sparkResource == null) {
            throw new ParameterException(spec.commandLine(), "--type " + type + " goes with --spark-resource NAME");
        }
        if (json || verbose) {
            throw new ParameterException(spec.commandLine(), "--spark-resource prints Spark's JSON alone: leave out "
                    + (json ? "--json" : "--verbose"));
        }
        String problem = SparkDiscovery.problem(sparkResource);
        if (problem != null) {
            throw new ParameterException(spec.commandLine(), "--spark-resource '" + sparkResource + "': " + problem);
        }
        return sparkResource;
    }

    /** @return the type {@code --type} names, or null without it */
    private DeviceType deviceType() {
        if (type == null) {
            return null;
        }
        return DeviceType.byName(type.toUpperCase(Locale.ROOT)).orElseThrow(() -> new ParameterException(spec.commandLine(),
                "--type " + type + ": no device type " + type + " (see quiver devices)"));
    }
}
