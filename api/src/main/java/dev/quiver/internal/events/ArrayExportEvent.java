package dev.quiver.internal.events;

import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * An array handed to a consumer's ArrowDeviceArray: moved out ({@code Interchange.exportDevice}) or shared
 * ({@code Interchange.exportShared}). Started and finished by one thread.
 */
@Name("dev.quiver.ArrayExport")
@Label("Array Export")
@Description("An array handed out as an ArrowDeviceArray, moved or shared")
@StackTrace(false)
public final class ArrayExportEvent extends ArrayEvent {
    private static final ArrayExportEvent PROBE = new ArrayExportEvent();

    @Label("Shared")
    @Description("True if Java keeps the array and the consumer got a view of it")
    boolean shared;

    /** @return a begun event, or null (nothing allocated) when no recording wants this event */
    static ArrayExportEvent start() {
        return PROBE.isEnabled() ? begun(new ArrayExportEvent()) : null;
    }

    /**
     * Ends the event and commits it with these values.
     *
     * @param device device type and id, for example {@code CUDA:0}
     * @param field  the field name
     * @param length the array's length
     * @param shared true for a shared export, false for a move
     */
    public void finish(String device, String field, long length, boolean shared) {
        this.shared = shared;
        finish(device, field, length);
    }
}
