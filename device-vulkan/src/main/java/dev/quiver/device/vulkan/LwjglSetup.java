package dev.quiver.device.vulkan;

import org.lwjgl.system.Configuration;

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
 *       without the {@code -dev} package that provides the unversioned {@code libvulkan.so}.</li>
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

    /** @return the Vulkan loader LWJGL will load, for messages */
    static String loaderName() {
        Object configured = Configuration.VULKAN_LIBRARY_NAME.get();
        return configured != null ? configured.toString() : isLinux() ? LINUX_LOADER : "the Vulkan loader";
    }

    private static boolean isLinux() {
        return System.getProperty("os.name", "").toLowerCase(Locale.ROOT).contains("linux");
    }
}
