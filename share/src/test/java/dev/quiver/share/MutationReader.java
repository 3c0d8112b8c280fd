package dev.quiver.share;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.host.ArrayReader;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Reads a received array in every way a receiver can while its owner rewrites it: {@code validateFull}, every
 * value through {@link ArrayReader} ({@code getObject}, the typed getter of its type, the validity copy, every
 * child's and dictionary's reader, {@code values()}), and a copy to the host read the same way. Each step that
 * fails with a {@link RuntimeException} is counted under the step and the exception's class (a value may come out
 * wrong or be refused; the run goes on); an {@link Error} (a fault the JVM turned into one) is not caught.
 *
 * <p>An array whose contents were not validated at receipt is copied too, whether its check passed or not: a copy
 * checks the list offsets it follows against their child and the ranges it reads against this process's readable
 * memory (a mapped region is followed by address space nothing may read), so unchecked contents fail the copy with
 * an exception, never a fault.
 *
 * <p><b>Threading.</b> One thread.
 */
final class MutationReader {
    private final Breadcrumb breadcrumb;
    private final Map<String, Long> failures = new TreeMap<>();
    private final Map<String, String> examples = new TreeMap<>();
    private long steps;

    /** @param breadcrumb where each step is noted before it runs */
    MutationReader(Breadcrumb breadcrumb) {
        this.breadcrumb = breadcrumb;
    }

    /**
     * Reads {@code array} in every way; the caller still closes it.
     *
     * @param array              the array
     * @param what               names it, for the breadcrumb
     */
    void readEverything(DeviceArray array, String what) {
        breadcrumb.note(what);
        step("validateFull", () -> Interchange.validateFull(array));
        step("reader", () -> read(ArrayReader.of(array)));
        step("values", () -> ArrayReader.of(array).values().toString());
        step("copyToHost", () -> {
            try (DeviceArray copy = Copies.toHost(array)) {
                read(ArrayReader.of(copy));
            }
        });
    }

    /** Counts a failure that is not a step's (a refused batch). @param what its category */
    void count(String what) {
        failures.merge(what, 1L, Long::sum);
    }

    /** {@return failures per "step: exception class"} */
    Map<String, Long> failures() {
        return new TreeMap<>(failures);
    }

    /** {@return the message of the first failure of each category} */
    Map<String, String> examples() {
        return new TreeMap<>(examples);
    }

    /** {@return how many steps ran} */
    long steps() {
        return steps;
    }

    /** Runs one step; {@return whether it passed} */
    private boolean step(String name, Runnable step) {
        steps++;
        breadcrumb.step(name);
        try {
            step.run();
            return true;
        } catch (RuntimeException e) {
            String category = name + ": " + e.getClass().getSimpleName();
            count(category);
            examples.putIfAbsent(category, String.valueOf(e.getMessage()));
            return false;
        }
    }

    /** Reads every value of {@code reader} and of its children and dictionary. */
    private static void read(ArrayReader reader) {
        long length = reader.length();
        List<BufferLayout.Buffer> buffers = BufferLayout.of(reader.field().type()).buffers();
        if (length > 0 && !buffers.isEmpty() && buffers.getFirst().kind() == BufferLayout.Kind.VALIDITY) {
            reader.copyValidity(0, new boolean[(int) length], 0, (int) length);
        }
        for (long i = 0; i < length; i++) {
            reader.isNull(i);
            reader.getObject(i);
            if (reader.field().dictionary() == null && !reader.isNull(i)) {
                typed(reader, i);
            }
        }
        for (int k = 0; k < reader.field().children().size(); k++) {
            read(reader.child(k));
        }
        if (reader.field().dictionary() != null) {
            read(reader.dictionary());
        }
    }

    /** Reads value {@code i} with the typed getter of its type, where it has one. */
    private static void typed(ArrayReader reader, long i) {
        switch (reader.field().type()) {
            case ArrowType.Bool t -> reader.getBoolean(i);
            case ArrowType.Int t -> reader.getLong(i);
            case ArrowType.FloatingPoint t -> reader.getDouble(i);
            case ArrowType.Decimal t -> reader.getDecimal(i);
            case ArrowType.Utf8 t -> reader.getString(i);
            case ArrowType.LargeUtf8 t -> reader.getString(i);
            case ArrowType.Utf8View t -> reader.getString(i);
            case ArrowType.Binary t -> reader.getBytes(i);
            case ArrowType.LargeBinary t -> reader.getBytes(i);
            case ArrowType.BinaryView t -> reader.getBytes(i);
            case ArrowType.FixedSizeBinary t -> reader.getBytes(i);
            case ArrowType.Date t -> reader.getLong(i);
            case ArrowType.Timestamp t -> reader.getLong(i);
            case ArrowType.Duration t -> reader.getLong(i);
            default -> { }   // nested, union, run-end encoded, time, interval: getObject and the children cover them
        }
    }
}
