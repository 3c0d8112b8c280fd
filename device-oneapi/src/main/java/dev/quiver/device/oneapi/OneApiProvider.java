package dev.quiver.device.oneapi;

import dev.quiver.device.ffm.BackendUnavailableException;
import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceException;
import dev.quiver.spi.DeviceProvider;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.spi.ProbeResult;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * Serves {@code ARROW_DEVICE_ONEAPI} through Level Zero: every device of every Level Zero driver, numbered
 * from 0 in driver order as {@code device_id}, allocating one kind of unified shared memory.
 *
 * <p>The loader is {@code libze_loader.so.1}, found by the dynamic linker, unless the system property
 * {@value #LIBRARY_PROPERTY} names another library file; the memory kind is {@code device} unless
 * {@value #MEMORY_PROPERTY} says {@code shared} or {@code host}. Both are read when {@link #probe()} runs.
 * Construction does no native work. Thread-safe.
 */
public final class OneApiProvider implements DeviceProvider {
    /** System property naming the Level Zero loader library to load instead of {@code libze_loader.so.1}. */
    public static final String LIBRARY_PROPERTY = "quiver.oneapi.library";
    /** System property choosing the memory kind: {@code device} (default), {@code shared} or {@code host}. */
    public static final String MEMORY_PROPERTY = "quiver.oneapi.memory";

    private final Path library;
    private final OneApiMemory memory;

    /** Uses the installed loader and memory kind, or those the system properties name. Does nothing native. */
    public OneApiProvider() {
        this.library = null;
        this.memory = null;
    }

    /**
     * Uses the given loader library file and memory kind. Does nothing native.
     *
     * @param library the Level Zero loader to load
     * @param memory  the kind of memory the devices allocate
     */
    public OneApiProvider(Path library, OneApiMemory memory) {
        this.library = Objects.requireNonNull(library);
        this.memory = Objects.requireNonNull(memory);
    }

    @Override
    public String name() {
        return "oneapi";
    }

    /** @return what to install or set where this backend is unavailable */
    @Override
    public String setupHint() {
        return "install the Level Zero loader (libze1) and an Intel GPU driver (intel-level-zero-gpu), or set -D" + LIBRARY_PROPERTY + "=/path/to/libze_loader.so.1";
    }

    @Override
    public int[] deviceTypes() {
        return new int[] {DeviceTypeCodes.ONEAPI};
    }

    @Override
    public ProbeResult probe() {
        try {
            List<BackendDevice> devices = List.copyOf(LevelZero.open(library()).devices(memory()));
            return ProbeResult.available(devices);
        } catch (BackendUnavailableException e) {
            return e.probeResult();
        } catch (DeviceException e) {
            return ProbeResult.unavailable("Level Zero device enumeration failed: " + e.getMessage());
        } catch (RuntimeException | LinkageError e) {
            return ProbeResult.unavailable("Level Zero unusable: " + e);
        }
    }

    /** {@return the loader this provider loads: a path, or a name for the dynamic linker's search} */
    public String library() {
        if (library != null) {
            return library.toString();
        }
        String configured = System.getProperty(LIBRARY_PROPERTY);
        return configured == null || configured.isBlank() ? LevelZero.LIBRARY : configured;
    }

    /**
     * {@return the memory kind the devices allocate}
     * @throws IllegalArgumentException if {@value #MEMORY_PROPERTY} names no kind
     */
    public OneApiMemory memory() {
        if (memory != null) {
            return memory;
        }
        String configured = System.getProperty(MEMORY_PROPERTY);
        return configured == null || configured.isBlank() ? OneApiMemory.DEVICE : OneApiMemory.parse(configured);
    }
}
