package dev.quiver.benchmarks.handoff;

import java.lang.reflect.InvocationTargetException;
import java.util.List;

/**
 * What the Khronos validation layer reported so far in this process: the Vulkan backend's
 * {@code dev.quiver.device.vulkan.ValidationLog}, a runtime dependency of this module (it is not read at
 * compile time, so that this module needs no Vulkan modules to build), reached by its public
 * {@code messages()}. Stateless; thread-safe.
 */
final class ValidationMessages {
    private static final String LOG = "dev.quiver.device.vulkan.ValidationLog";

    private ValidationMessages() {}

    /**
     * {@return a snapshot of the messages, oldest first}
     * @throws IllegalStateException if the Vulkan backend is not on the class path
     */
    static List<String> all() {
        try {
            List<?> messages = (List<?>) Class.forName(LOG).getMethod("messages").invoke(null);
            return messages.stream().map(String::valueOf).toList();
        } catch (ClassNotFoundException | NoSuchMethodException | IllegalAccessException e) {
            throw new IllegalStateException("the Vulkan backend (quiver-device-vulkan) is not on the class path: " + e, e);
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("reading the validation log failed: " + e.getCause(), e.getCause());
        }
    }
}
