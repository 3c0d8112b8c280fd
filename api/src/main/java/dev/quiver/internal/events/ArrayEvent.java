package dev.quiver.internal.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;

/**
 * What every Quiver event records: the array's device, its field name and its length; the duration is the
 * event's own. An event object belongs to the thread that started it, which ends it once.
 */
@Category("Quiver")
abstract class ArrayEvent extends Event {
    @Label("Device")
    @Description("Device type and id of the array, for example CUDA:0; for a copy, the source")
    String device;

    @Label("Field")
    @Description("Name of the array's field")
    String field;

    @Label("Length")
    @Description("Number of elements of the array")
    long length;

    /**
     * Ends the event and commits it with these values, if the recording keeps events of its duration.
     *
     * @param device device type and id, for example {@code CUDA:0}
     * @param field  the field name
     * @param length the array's length
     */
    public final void finish(String device, String field, long length) {
        end();
        if (shouldCommit()) {
            this.device = device;
            this.field = field;
            this.length = length;
            commit();
        }
    }

    /** @return {@code event}, begun */
    static <E extends ArrayEvent> E begun(E event) {
        event.begin();
        return event;
    }
}
