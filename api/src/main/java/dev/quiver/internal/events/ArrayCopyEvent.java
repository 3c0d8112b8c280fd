package dev.quiver.internal.events;

import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Label;
import jdk.jfr.Name;

/**
 * A copy of an array to a device or to the host ({@code copyTo}, {@code copyToHost}), from the wait on its
 * source's event to the copy's import; the duration is the host's, and work left on the target's stream
 * may still run after it. Started and finished by one thread.
 */
@Name("dev.quiver.ArrayCopy")
@Label("Array Copy")
@Description("A copy of an array to another device, the same one or the host")
public final class ArrayCopyEvent extends ArrayEvent {
    private static final ArrayCopyEvent PROBE = new ArrayCopyEvent();

    @Label("Target")
    @Description("Device type and id of the copy")
    String target;

    @Label("Bytes")
    @Description("Bytes allocated and written on the target for the copy's buffers")
    @DataAmount
    long bytes;

    /** @return a begun event, or null (nothing allocated) when no recording wants this event */
    static ArrayCopyEvent start() {
        return PROBE.isEnabled() ? begun(new ArrayCopyEvent()) : null;
    }

    /**
     * Ends the event and commits it with these values.
     *
     * @param source device type and id of the array copied, for example {@code CPU:-1}
     * @param target device type and id of the copy
     * @param field  the field name
     * @param length the array's length
     * @param bytes  bytes of the copy's buffers on the target
     */
    public void finish(String source, String target, String field, long length, long bytes) {
        this.target = target;
        this.bytes = bytes;
        finish(source, field, length);
    }
}
