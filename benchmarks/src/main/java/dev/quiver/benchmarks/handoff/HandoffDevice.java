package dev.quiver.benchmarks.handoff;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Where the owner of {@link HandoffVersusFlight} keeps its batches and where the harness receives them: the
 * option {@code --device}. Immutable.
 */
enum HandoffDevice {
    /** Host memory: each batch built in a {@code SharedHostArena}, handed off as its memory file. */
    CPU(List.of(1L, 131_072L, 1_000_000L, 8_388_608L, 134_217_728L)),
    /**
     * Mesa's lavapipe through the Vulkan backend: each batch copied once onto the device, handed off as
     * {@code VULKAN_FD} descriptors and opened on the receiver's own lavapipe device.
     */
    VULKAN(List.of(131_072L, 8_388_608L, 134_217_728L));

    private final List<Long> defaultRows;

    HandoffDevice(List<Long> defaultRows) {
        this.defaultRows = defaultRows;
    }

    /** {@return the row counts measured when {@code --rows} is not given} */
    List<Long> defaultRows() {
        return defaultRows;
    }

    /** {@return the option's value that names this device} */
    String optionValue() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param value what followed {@code --device}
     * @return the device it names
     * @throws IllegalArgumentException naming the value and the ones allowed
     */
    static HandoffDevice parse(String value) {
        return Arrays.stream(values()).filter(d -> d.optionValue().equals(value)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("--device takes " + Arrays.stream(values())
                        .map(HandoffDevice::optionValue).toList() + ", not " + value));
    }
}
