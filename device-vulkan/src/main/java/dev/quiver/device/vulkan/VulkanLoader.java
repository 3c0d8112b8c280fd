package dev.quiver.device.vulkan;

import dev.quiver.spi.DriverStartLock;
import org.lwjgl.vulkan.VK;

import java.util.Optional;

/**
 * Loads the Vulkan loader library through LWJGL, once per process, after {@link LwjglSetup}. LWJGL loads it
 * when its {@code VK} class initialises, unless the application asked for explicit initialisation, in which
 * case Quiver calls {@code VK.create()}; a library an application loaded already is used as it is. A failure
 * is remembered: LWJGL cannot retry after its {@code VK} class failed to initialise. Thread-safe.
 */
final class VulkanLoader {
    private static boolean loaded;
    private static String failure;

    private VulkanLoader() {}

    /** @return empty once the Vulkan library is loaded, or why it cannot be */
    static synchronized Optional<String> load() {
        if (loaded) {
            return Optional.empty();
        }
        if (failure != null) {
            return Optional.of(failure);
        }
        try {
            // LWJGL looks up the path of a library it loaded by name by loading inside a walk of the loaded
            // libraries, which deadlocks against a library another thread loads at that moment: it gets the
            // loader's absolute path, so that it has no path to look up, and it loads alone in case an
            // application named the loader itself
            DriverStartLock.alone(() -> {
                LwjglSetup.configure();
                LwjglSetup.pinLoaderPath();
                try {
                    VK.getFunctionProvider();
                } catch (IllegalStateException explicitInitialisation) {
                    VK.create();
                }
                return null;
            });
            loaded = true;
            return Optional.empty();
        } catch (RuntimeException | LinkageError e) {
            failure = describe(e);
            return Optional.of(failure);
        }
    }

    static String describe(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = String.valueOf(root.getMessage());
        if (message.contains("lwjgl") && !message.contains("vulkan")) {
            return "LWJGL's native library could not be loaded (" + message + "): put org.lwjgl:lwjgl with the classifier for"
                    + " this OS (natives-linux on Linux x86-64) on the class or module path";
        }
        if (root instanceof UnsatisfiedLinkError || message.contains("locate library")) {
            return "Vulkan loader not found: " + LwjglSetup.loaderName() + " could not be loaded (" + message
                    + "); install the Vulkan loader (Debian/Ubuntu: libvulkan1)";
        }
        return "the Vulkan library could not be loaded through LWJGL: " + root;
    }
}
