package dev.quiver.device.vulkan;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.List;

/**
 * Fails any test during which the Khronos validation layer reported a message through Quiver's messenger,
 * and any test class after which the process has recorded one. Registered for every test class of this
 * module by JUnit's extension auto-detection ({@code META-INF/services} plus {@code junit-platform.properties}).
 */
public final class NoValidationMessages implements BeforeEachCallback, AfterEachCallback, AfterAllCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(NoValidationMessages.class);

    @Override
    public void beforeEach(ExtensionContext context) {
        context.getStore(NAMESPACE).put("before", ValidationLog.count());
    }

    @Override
    public void afterEach(ExtensionContext context) {
        int before = context.getStore(NAMESPACE).get("before", Integer.class);
        List<String> messages = ValidationLog.messages();
        if (messages.size() > before) {
            throw new AssertionError("Vulkan validation reported " + (messages.size() - before) + " message(s) during "
                    + context.getDisplayName() + ": " + messages.subList(before, messages.size()));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        List<String> messages = ValidationLog.messages();
        if (!messages.isEmpty()) {
            throw new AssertionError("Vulkan validation reported " + messages.size() + " message(s) in this process: " + messages);
        }
    }
}
