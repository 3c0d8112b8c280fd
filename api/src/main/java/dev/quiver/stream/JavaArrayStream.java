package dev.quiver.stream;

import dev.quiver.Interchange;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.InvalidArrowException;
import dev.quiver.type.Field;

import java.lang.foreign.MemorySegment;

/**
 * A {@link DeviceArrayStream} over arrays made in this JVM ({@link DeviceArrayStream#of}): no C struct in between.
 * Each array the source gives is checked against the stream's device type and schema and moves to the consumer.
 *
 * <p><b>Ownership.</b> The stream owns its source and closes it once, in {@link #release()}. <b>Threading:</b>
 * the source is pulled only inside the parent's gate, one call at a time, so the count below needs no ordering of
 * its own.
 */
final class JavaArrayStream extends DeviceArrayStream {
    private final ArraySource source;
    /** Arrays taken from the source so far. */
    private long imported;

    JavaArrayStream(Field schema, DeviceType deviceType, ArraySource source) {
        super(schema, deviceType);
        this.source = source;
    }

    /**
     * An untouched stream hands its source to the consumer directly, with no second layer of checks; one that was
     * pulled already is exported as any stream is.
     */
    @Override
    void export(MemorySegment out) {
        if (imported > 0) {
            super.export(out);
            return;
        }
        if (!gate.close()) {
            throw new IllegalStateException("DeviceArrayStream is closed");
        }
        try {
            PullStreamExport.export(source, schema(), deviceType(), out);
        } catch (RuntimeException | Error e) {
            try {
                source.close();
            } catch (Exception closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** Takes the next array of the source and checks it against the stream's device type and schema. */
    @Override
    DeviceArray fetch() {
        DeviceArray array;
        try {
            array = source.next();
        } catch (Exception | OutOfMemoryError e) {
            // as the same source behind a C stream would fail: its errno code, and the source's exception as cause
            StreamException failed = new StreamException(ErrorCodes.codeFor(e),
                    "get_next: the Java source failed at array " + imported + ": " + ErrorCodes.messageFor(e));
            failed.initCause(e);
            throw failed;
        }
        if (array == null) {
            return null;
        }
        if (!array.deviceType().equals(deviceType()) || !ArrayChecks.sameTypes(schema(), array.field())) {
            String found = array.deviceType() + " " + array.field();
            array.close();
            throw new InvalidArrowException("", "array " + imported + " of the source is " + found + ", not " + deviceType()
                    + " " + schema() + " as the stream says; it was closed");
        }
        imported++;
        return array;
    }

    /** Takes the next array as {@link #fetch()} does and moves it into {@code out}. */
    @Override
    boolean fetchInto(long out) {
        DeviceArray array = fetch();
        if (array == null) {
            return false;
        }
        Interchange.exportDevice(array, MemorySegment.ofAddress(out), MemorySegment.NULL);
        return true;
    }

    @Override
    void release() {
        try {
            source.close();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("closing the source of " + this + " failed: " + e.getMessage(), e);
        }
    }
}
