package dev.quiver.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * An ArrowDeviceArray moved into Java ({@code Interchange.importDevice}), validation included. Started and
 * finished by one thread.
 */
@Name("dev.quiver.ArrayImport")
@Label("Array Import")
@Description("An ArrowDeviceArray moved into Java and validated")
@StackTrace(false)
public final class ArrayImportEvent extends ArrayEvent {
    private static final ArrayImportEvent PROBE = new ArrayImportEvent();

    /** @return a begun event, or null (nothing allocated) when no recording wants this event */
    static ArrayImportEvent start() {
        return PROBE.isEnabled() ? begun(new ArrayImportEvent()) : null;
    }
}
