package dev.quiver.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * The release callbacks of an array Java owned, called once its owner and every view let go. Started and
 * finished by one thread.
 */
@Name("dev.quiver.ArrayRelease")
@Label("Array Release")
@Description("The release callbacks of an array Java owned, called when the last reference let go")
@StackTrace(false)
public final class ArrayReleaseEvent extends ArrayEvent {
    private static final ArrayReleaseEvent PROBE = new ArrayReleaseEvent();

    /** @return a begun event, or null (nothing allocated) when no recording wants this event */
    static ArrayReleaseEvent start() {
        return PROBE.isEnabled() ? begun(new ArrayReleaseEvent()) : null;
    }
}
