package dev.quiver.cli;

import dev.quiver.Devices;
import dev.quiver.ProviderReport;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code quiver devices}: every backend found, its status with the reasons and what would enable it, and
 * its devices; in {@value DevicesText#WIDTH} columns ({@link DevicesText}), or as JSON for scripts
 * ({@link DevicesJson}).
 */
@Command(name = "devices", mixinStandardHelpOptions = true,
        description = "List backends, why each is or is not usable (and what would enable it), and their devices.")
final class DevicesCommand implements Callable<Integer> {

    @Option(names = {"-v", "--verbose"}, description = "add each device's details and each backend's device types and class")
    boolean verbose;

    @Option(names = "--json", description = "print everything as one line of JSON, for scripts")
    boolean json;

    @Override
    public Integer call() {
        List<ProviderReport> reports = Devices.system().report();
        if (json) {
            System.out.println(DevicesJson.of(VersionProvider.quiverVersion(), reports));
        } else {
            new DevicesText(verbose, Style.detect()).print(reports, System.out);
        }
        return 0;
    }
}
