package dev.quiver.cli;

import dev.quiver.testkit.CLibrary;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * The C producers the {@code quiver check} tests point the command at ({@code check_*.c}), compiled once
 * with gcc into one shared library, and the release counts they keep in C. The command loads the same
 * library by path, so both see the same counters.
 */
final class CheckProducers {
    static final CLibrary LIBRARY = CLibrary.fromSources(CLibrary.readResources(CheckProducers.class, List.of(
            "check_batch.h", "check_batch.c", "check_conforming.c", "check_violations.c", "check_streams.c", "check_events.c", "check_crashes.c")), List.of());

    private static final MethodHandle ARRAY_RELEASES = counter("batch_array_releases");
    private static final MethodHandle TOP_ARRAY_RELEASES = counter("batch_top_array_releases");
    private static final MethodHandle SCHEMA_RELEASES = counter("batch_schema_releases");
    private static final MethodHandle TOP_SCHEMA_RELEASES = counter("batch_top_schema_releases");
    private static final MethodHandle STREAM_RELEASES = counter("stream_release_count");
    private static final MethodHandle SET_EVENT = LIBRARY.function("check_set_event", FunctionDescriptor.ofVoid(ADDRESS));
    private static final Pattern RULE = Pattern.compile("\"rule\": \"([^\"]+)\", \"path\": \"([^\"]+)\"");

    private CheckProducers() {}

    /** @return the path of the shared library */
    static String path() {
        return LIBRARY.path().toString();
    }

    /**
     * Release calls counted in C.
     *
     * @param arrays    ArrowArray nodes released
     * @param topArrays top-level ArrowArrays released
     * @param schemas   ArrowSchema nodes released
     * @param topSchemas top-level ArrowSchemas released
     * @param streams   streams released
     */
    record Releases(long arrays, long topArrays, long schemas, long topSchemas, long streams) {
        static Releases now() {
            return new Releases(count(ARRAY_RELEASES), count(TOP_ARRAY_RELEASES), count(SCHEMA_RELEASES),
                    count(TOP_SCHEMA_RELEASES), count(STREAM_RELEASES));
        }

        Releases since(Releases before) {
            return new Releases(arrays - before.arrays, topArrays - before.topArrays, schemas - before.schemas,
                    topSchemas - before.topSchemas, streams - before.streams);
        }
    }

    /** Sets the event handle that {@code check_events.c} hands out. */
    static void setEvent(MemorySegment event) {
        try {
            SET_EVENT.invokeExact(event);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

    /** @return the {@code rule} ids of a {@code --json} report, each once, in order */
    static Set<String> rules(String json) {
        Set<String> rules = new LinkedHashSet<>();
        Matcher m = RULE.matcher(json);
        while (m.find()) {
            rules.add(m.group(1));
        }
        return rules;
    }

    /** @return the {@code path}s of a {@code --json} report, in order */
    static List<String> paths(String json) {
        return RULE.matcher(json).results().map(r -> r.group(2)).toList();
    }

    private static MethodHandle counter(String name) {
        return LIBRARY.function(name, FunctionDescriptor.of(JAVA_LONG));
    }

    private static long count(MethodHandle counter) {
        try {
            return (long) counter.invokeExact();
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }
}
