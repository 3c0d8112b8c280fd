package dev.quiver.internal.events;

import jdk.jfr.Category;
import jdk.jfr.DataAmount;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;

/**
 * What both pool events record: the device, the bytes of the change, and what the pool holds after it. An
 * event object belongs to the thread that started it, which ends it once.
 */
@Category({"Quiver", "Memory pool"})
abstract class PoolEvent extends Event {
    @Label("Device")
    @Description("Device of the pool, for example CUDA:0")
    String device;

    @Label("Bytes")
    @Description("Bytes of the change")
    @DataAmount
    long bytes;

    @Label("Held")
    @Description("Bytes the pool holds from its allocator afterwards: in use, cached and pending")
    @DataAmount
    long held;

    /**
     * Ends the event and commits it with these values, if the recording keeps events of its duration.
     *
     * @param device the pool's device
     * @param bytes  the bytes of the change
     * @param held   what the pool holds afterwards
     */
    public final void finish(String device, long bytes, long held) {
        end();
        if (shouldCommit()) {
            this.device = device;
            this.bytes = bytes;
            this.held = held;
            commit();
        }
    }

    static <E extends PoolEvent> E begun(E event) {
        event.begin();
        return event;
    }
}
