package dev.quiver.cli;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code quiver selftest}: for each usable device, builds a record batch on the host, copies it to the
 * device, exports it into C {@code ArrowDeviceArray}/{@code ArrowSchema} structs and imports it back,
 * copies it to the host and compares every value, then prints each device's limits. Exit code 1 if any
 * device fails.
 */
@Command(name = "selftest", mixinStandardHelpOptions = true, description = "Move a record batch through every usable device and the C ABI, and verify it.")
final class SelftestCommand implements Callable<Integer> {

    /** The most rows a self test builds: enough to cross every copy path, small enough for any machine. */
    static final int MAX_ROWS = 10_000_000;
    /** Output keeps to this many columns, as {@code quiver devices} does. */
    private static final int WIDTH = 100;
    /** The device column's width: long names (PoCL's) are cut, the type and id always show. */
    private static final int LABEL_WIDTH = 24;

    @Spec
    CommandSpec spec;

    @Option(names = "--rows", description = "rows in the test batch, 1 to " + MAX_ROWS + " (default: ${DEFAULT-VALUE})", defaultValue = "10000")
    int rows;

    @Option(names = "--device", paramLabel = "TYPE[:ID]",
            description = "test only these devices (repeatable): a type, e.g. opencl, or one device, e.g. vulkan:0 (default: every usable device)")
    List<String> only = List.of();

    @Override
    public Integer call() {
        if (rows < 1 || rows > MAX_ROWS) {
            throw new ParameterException(spec.commandLine(), "--rows must be between 1 and " + MAX_ROWS + ", not " + rows);
        }
        HostVector batch = batch(rows);
        List<Object> expected = batch.values();
        Devices devices = Devices.system();
        Table table = new Table("DEVICE", "BACKEND", "BUILD", "TO DEVICE", "C ABI", "TO HOST", "VERIFY", "RESULT");
        int failures = 0;
        List<Device> all = chosen(devices.all());
        for (Device device : all) {
            Timings t = new Timings();
            String result;
            long exportsBefore = Diagnostics.liveExports();
            try (Arena arena = Arena.ofConfined()) {
                DeviceArray host = t.time(() -> batch.toDeviceArray(devices));
                DeviceArray onDevice;
                try (host) {
                    onDevice = t.time(() -> Copies.toDevice(host, device));
                }
                MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
                MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
                DeviceArray imported = t.time(() -> {
                    Interchange.exportDevice(onDevice, array, schema);
                    return Interchange.importDevice(array, schema, ImportOptions.on(devices));
                });
                try (imported; DeviceArray back = t.time(() -> Copies.toHost(imported))) {
                    List<Object> actual = t.time(() -> ArrayReader.of(back).values());
                    result = actual.equals(expected) ? "PASS" : "FAIL: values differ after the round trip";
                }
                if (result.equals("PASS") && Diagnostics.liveExports() != exportsBefore) {
                    result = "FAIL: " + (Diagnostics.liveExports() - exportsBefore) + " exported structs were not released";
                }
            } catch (RuntimeException e) {
                result = "FAIL: " + e;
            }
            if (!result.equals("PASS")) {
                failures++;
            }
            table.row(Wrap.fit(DeviceText.label(device), LABEL_WIDTH), device.provider(),
                    t.at(0), t.at(1), t.at(2), t.at(3), t.at(4), result);
        }
        System.out.println("selftest: " + rows + " rows of " + batch.field().children().size() + " columns ("
                + batch.field().children().stream().map(f -> f.name() + ":" + f.type().format()).toList() + ") per device");
        table.print(System.out);
        for (Device device : all) {
            List<String> lines = Wrap.lines(DeviceText.label(device) + ": " + DeviceText.details(device), WIDTH);
            System.out.println(lines.getFirst());
            lines.stream().skip(1).flatMap(rest -> Wrap.lines(rest, WIDTH - 2).stream()).forEach(l -> System.out.println("  " + l));
        }
        System.out.println(all.isEmpty() ? "no usable device" : failures == 0 ? "all " + all.size() + " device(s) passed" : failures + " device(s) failed");
        return failures == 0 && !all.isEmpty() ? 0 : 1;
    }

    /** @return the devices --device names, in the order {@code quiver devices} lists them; all where it names none */
    private List<Device> chosen(List<Device> usable) {
        if (only.isEmpty()) {
            return usable;
        }
        List<Device> chosen = new java.util.ArrayList<>();
        for (String name : only) {
            String[] parts = name.split(":", 2);
            dev.quiver.DeviceType type = dev.quiver.DeviceType.byName(parts[0].toUpperCase(java.util.Locale.ROOT))
                    .orElseThrow(() -> new ParameterException(spec.commandLine(), "--device " + name + ": no device type " + parts[0]));
            Long id = null;
            if (parts.length == 2) {
                try {
                    id = Long.parseLong(parts[1]);
                } catch (NumberFormatException e) {
                    throw new ParameterException(spec.commandLine(), "--device " + name + ": the id must be a number");
                }
            }
            Long wanted = id;
            List<Device> matching = usable.stream()
                    .filter(d -> d.type().equals(type) && (wanted == null || d.id() == wanted)).toList();
            if (matching.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--device " + name + ": no such usable device here (see quiver devices)");
            }
            matching.stream().filter(d -> !chosen.contains(d)).forEach(chosen::add);
        }
        return usable.stream().filter(chosen::contains).toList();
    }

    static HostVector batch(int rows) {
        Integer[] ids = new Integer[rows];
        Double[] values = new Double[rows];
        Boolean[] flags = new Boolean[rows];
        String[] names = new String[rows];
        Integer[] lengths = new Integer[rows];
        int elements = 0;
        for (int i = 0; i < rows; i++) {
            ids[i] = i % 11 == 0 ? null : i * 7919;
            values[i] = i % 13 == 0 ? null : i / 3.0;
            flags[i] = i % 5 == 0 ? null : i % 2 == 0;
            names[i] = i % 17 == 0 ? null : "name-" + i;
            lengths[i] = i % 19 == 0 ? null : i % 4;
            elements += lengths[i] == null ? 0 : lengths[i];
        }
        Long[] items = new Long[elements];
        for (int i = 0; i < elements; i++) {
            items[i] = i % 23 == 0 ? null : (long) i * i;
        }
        return HostVector.struct("batch",
                HostVector.int32("id", ids),
                HostVector.float64("value", values),
                HostVector.bool("flag", flags),
                HostVector.utf8("name", names),
                HostVector.list("items", HostVector.int64("item", items), lengths));
    }

    /** Step timings of one device, in order. */
    private static final class Timings {
        private final long[] nanos = new long[5];
        private int next;

        <T> T time(java.util.function.Supplier<T> step) {
            long start = System.nanoTime();
            T result = step.get();
            nanos[next++] = System.nanoTime() - start;
            return result;
        }

        String at(int i) {
            return i < next ? String.format("%.2f ms", nanos[i] / 1e6) : "-";
        }
    }
}
