package dev.quiver.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A memory pool asking its allocator for a new block: a cache miss. Started and finished by one thread. */
@Name("dev.quiver.PoolGrow")
@Label("Memory Pool Grow")
@Description("A memory pool took a new block from its allocator (a cache miss)")
@StackTrace(false)
public final class PoolGrowEvent extends PoolEvent {
    private static final PoolGrowEvent PROBE = new PoolGrowEvent();

    /** @return a begun event, or null (nothing allocated) when no recording wants this event */
    static PoolGrowEvent start() {
        return PROBE.isEnabled() ? begun(new PoolGrowEvent()) : null;
    }
}
