package dev.quiver.device.vulkan;

import dev.quiver.device.ffm.VendorLibrary;
import org.lwjgl.system.Configuration;

import java.nio.file.Files;
import java.util.List;
import java.util.Locale;

/**
 * Sets LWJGL's configuration before its first use, without overriding anything an application set already
 * (by {@code -D} or through {@link Configuration}). Called from the probe and from adoption, never at class
 * initialisation. Idempotent; thread-safe.
 *
 * <ul>
 *   <li>{@code org.lwjgl.system.memoryBackend=ffm} on JDK 25 and later: LWJGL then uses
 *       {@code java.lang.foreign} instead of {@code sun.misc.Unsafe}, so the JDK prints no Unsafe warnings.
 *       LWJGL 3.4 has its FFM memory backend only from JDK 25; on JDK 22 to 24 the setting is left alone.</li>
 *   <li>{@code org.lwjgl.vulkan.libname=libvulkan.so.1} on Linux: the loader's versioned name, present
 *       without the {@code -dev} package that provides the unversioned {@code libvulkan.so}. Before LWJGL
 *       loads it, {@link #pinLoaderPath()} replaces that name with the loader's absolute path.</li>
 * </ul>
 */
final class LwjglSetup {
    /** The value Quiver gives {@code org.lwjgl.system.memoryBackend}: LWJGL's selector for its FFM backend. */
    static final String MEMORY_BACKEND = "ffm";
    /** The Vulkan loader's name on Linux. */
    static final String LINUX_LOADER = "libvulkan.so.1";

    private LwjglSetup() {}

    static synchronized void configure() {
        if (Runtime.version().feature() >= 25 && Configuration.MEMORY_BACKEND.get() == null) {
            Configuration.MEMORY_BACKEND.set(MEMORY_BACKEND);
        }
        if (isLinux() && Configuration.VULKAN_LIBRARY_NAME.get() == null) {
            Configuration.VULKAN_LIBRARY_NAME.set(LINUX_LOADER);
        }
    }

    /**
     * Replaces the loader's name that {@link #configure()} set (or an application set to the same name) with
     * the absolute path of the loader the dynamic loader picks for it, loading it first if nobody has. Given
     * an absolute path, LWJGL 3.4.3 opens the library directly; given a name, it opens it from the system
     * paths and then looks up the path it was loaded from by calling {@code dlopen} inside a
     * {@code dl_iterate_phdr} callback, which deadlocks against any other thread's {@code dlopen} (see
     * {@link dev.quiver.spi.DriverStartLock}). Leaves the name as it is if the loader cannot be loaded (LWJGL
     * then reports that) or its path cannot be told. Linux only; call it in
     * {@link dev.quiver.spi.DriverStartLock#alone} or {@link dev.quiver.spi.DriverStartLock#loading}.
     */
    static synchronized void pinLoaderPath() {
        if (!isLinux() || !LINUX_LOADER.equals(Configuration.VULKAN_LIBRARY_NAME.get())) {
            return;
        }
        try {
            VendorLibrary.loadFirst(List.of(LINUX_LOADER));
        } catch (VendorLibrary.NotFoundException | IllegalCallerException notLoaded) {
            return;
        }
        MappedLibraries.find(LINUX_LOADER).filter(Files::isRegularFile)
                .ifPresent(path -> Configuration.VULKAN_LIBRARY_NAME.set(path.toString()));
    }

    /** @return the Vulkan loader LWJGL will load, for messages */
    static String loaderName() {
        Object configured = Configuration.VULKAN_LIBRARY_NAME.get();
        return configured != null ? configured.toString() : isLinux() ? LINUX_LOADER : "the Vulkan loader";
    }

    private static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    }
}
