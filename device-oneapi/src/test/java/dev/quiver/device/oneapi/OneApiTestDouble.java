package dev.quiver.device.oneapi;

import dev.quiver.testkit.TestDoubleLibrary;

import java.util.List;
import java.util.Map;

/**
 * The test double of the Level Zero loader ({@code fake_libze_loader.c}), compiled against the installed
 * {@code ze_api.h} into a library named {@code libze_loader.so.1}: one driver with two GPU devices. It stands
 * in for Level Zero so the backend's code runs here; it proves nothing about Level Zero hardware.
 */
final class OneApiTestDouble {
    private OneApiTestDouble() {}

    static TestDoubleLibrary library() {
        return TestDoubleLibrary.build(OneApiTestDouble.class, List.of("fake_libze_loader.c"), LevelZero.LIBRARY, List.of());
    }

    /** A provider loading the test double, allocating {@code memory}. */
    static OneApiProvider provider(OneApiMemory memory) {
        return new OneApiProvider(library().path(), memory);
    }

    /** What stays live once everything a test made is released: each device's default stream and its event. */
    static Map<String, Long> idle() {
        return Map.of("allocations", 0L, "streams", 2L, "events", 2L);
    }
}
