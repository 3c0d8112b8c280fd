package dev.quiver.device.vulkan;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Every message the Khronos validation layer (and the loader) reported through Quiver's
 * {@code VK_EXT_debug_utils} messenger, in the order received. Recording happens only when validation is on
 * ({@code -Dquiver.vulkan.validation=true}); messages are also logged through {@link System.Logger} at
 * WARNING. Quiver's tests and CI run with validation on and fail on any recorded message.
 *
 * <p>Thread-safe: the messenger records from whichever thread made the Vulkan call.
 */
public final class ValidationLog {
    /** The system property that turns validation on. */
    public static final String PROPERTY = "quiver.vulkan.validation";

    private static final System.Logger LOG = System.getLogger(ValidationLog.class.getName());
    private static final List<String> MESSAGES = new CopyOnWriteArrayList<>();

    private ValidationLog() {}

    /** {@return whether {@value #PROPERTY} asks for validation} */
    public static boolean requested() {
        return Boolean.getBoolean(PROPERTY);
    }

    /** {@return a snapshot of the messages recorded so far in this process} */
    public static List<String> messages() {
        return List.copyOf(MESSAGES);
    }

    /** {@return how many messages were recorded so far in this process} */
    public static int count() {
        return MESSAGES.size();
    }

    static void record(String message) {
        MESSAGES.add(message);
        LOG.log(System.Logger.Level.WARNING, "Vulkan: " + message);
    }
}
