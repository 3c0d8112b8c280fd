package dev.quiver.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A memory pool giving cached blocks back to its allocator: a trim, a lowered limit, or room made for a request.
 * Started and finished by one thread.
 */
@Name("dev.quiver.PoolTrim")
@Label("Memory Pool Trim")
@Description("A memory pool gave cached blocks back to its allocator")
@StackTrace(false)
public final class PoolTrimEvent extends PoolEvent {
    private static final PoolTrimEvent PROBE = new PoolTrimEvent();

    /** @return a begun event, or null (nothing allocated) when no recording wants this event */
    static PoolTrimEvent start() {
        return PROBE.isEnabled() ? begun(new PoolTrimEvent()) : null;
    }
}
