package dev.quiver.cli;

import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command line that runs {@code quiver} again in a new JVM, as this one runs: the same {@code java},
 * the same JVM options (native access, opened packages, system properties, a class data archive it reads)
 * and the same module path or class path. Options that write files meant for one process only (class data
 * recordings, a debugger's port, crash and core dump settings) are not passed on. Stateless.
 */
final class ChildJvm {
    private static final List<String> NOT_PASSED_ON = List.of("-Djdk.module.", "-XX:AOTMode=record",
            "-XX:AOTMode=create", "-XX:AOTConfiguration", "-XX:AOTCacheOutput", "-XX:DumpLoadedClassList",
            "-Xshare:dump", "-XX:SharedClassListFile", "-agentlib:jdwp", "-XX:ErrorFile", "-XX:OnError",
            "-XX:+CreateCoredumpOnCrash", "-XX:-CreateCoredumpOnCrash");

    private ChildJvm() {}

    /**
     * @param jvmOptions options for the new JVM, before the inherited ones
     * @param arguments  the {@code quiver} arguments
     * @return the command line
     */
    static List<String> command(List<String> jvmOptions, List<String> arguments) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(jvmOptions);
        boolean modulePath = false;
        for (String option : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (NOT_PASSED_ON.stream().noneMatch(option::startsWith)) {
                command.add(option);
                modulePath |= option.startsWith("--module-path");
            }
        }
        Module module = Quiver.class.getModule();
        if (module.isNamed()) {
            if (!modulePath) {
                command.add("--module-path=" + System.getProperty("jdk.module.path"));
            }
            command.add("--module");
            command.add(module.getName() + "/" + Quiver.class.getName());
        } else {
            command.add("-cp");
            command.add(System.getProperty("java.class.path"));
            command.add(Quiver.class.getName());
        }
        command.addAll(arguments);
        return command;
    }
}
