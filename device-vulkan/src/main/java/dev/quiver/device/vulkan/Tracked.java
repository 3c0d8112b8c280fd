package dev.quiver.device.vulkan;

import org.lwjgl.vulkan.VkDevice;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A Vulkan object that submitted work may still use (a buffer, an event): it knows the submissions in
 * flight that reference it, so that destroying it can first wait for them. Thread-safe.
 */
abstract class Tracked {
    private final Set<Submission> users = ConcurrentHashMap.newKeySet();

    /** Called when a submission that references this object is queued. */
    final void use(Submission submission) {
        users.add(submission);
    }

    /** Called when that submission has completed and retired. */
    final void done(Submission submission) {
        users.remove(submission);
    }

    /** @return the submissions in flight that reference this object */
    final List<Submission> users() {
        return List.copyOf(users);
    }

    /** @return whether every submission that references this object has completed; never blocks */
    final boolean idle(VkDevice device) {
        for (Submission submission : users) {
            if (!submission.isComplete(device)) {
                return false;
            }
        }
        return true;
    }

    /** Blocks until every submission that references this object has completed. */
    final void awaitUsers(VkDevice device) {
        for (Submission submission : users()) {
            submission.await(device);
        }
    }
}
