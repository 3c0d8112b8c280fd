package dev.quiver.cai;

import dev.quiver.DeviceStream;
import dev.quiver.Devices;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * How to import a CUDA Array Interface descriptor. Immutable: each method returns a new instance; safe to
 * share between threads. {@link #defaults()}: zero-copy only, field name {@code "cai"},
 * {@link Devices#system()}, nothing to release, and a named stream synchronised on the host.
 */
public final class CaiImportOptions {
    private static final Runnable NOTHING = () -> { };
    private static final CaiImportOptions DEFAULTS = new CaiImportOptions(false, "cai", null, NOTHING, null);

    private final boolean allowCopy;
    private final String name;
    private final Devices devices;
    private final Runnable release;
    private final MemorySegment consumerStream;

    private CaiImportOptions(boolean allowCopy, String name, Devices devices, Runnable release, MemorySegment consumerStream) {
        this.allowCopy = allowCopy;
        this.name = name;
        this.devices = devices;
        this.release = release;
        this.consumerStream = consumerStream;
    }

    /** {@return the defaults described above} */
    public static CaiImportOptions defaults() {
        return DEFAULTS;
    }

    /**
     * {@return options with that choice}
     * @param allow whether layouts Arrow cannot share may be copied on the device: one byte per boolean,
     *              negative or non-contiguous strides, and the mask (Arrow validity is a bitmap, so a mask is
     *              always packed into one)
     */
    public CaiImportOptions allowCopy(boolean allow) {
        return new CaiImportOptions(allow, name, devices, release, consumerStream);
    }

    /**
     * {@return options with that name}
     * @param fieldName the name of the imported array's field
     */
    public CaiImportOptions name(String fieldName) {
        return new CaiImportOptions(allowCopy, Objects.requireNonNull(fieldName), devices, release, consumerStream);
    }

    /**
     * {@return options with those devices}
     * @param where where the imported array finds backends
     */
    public CaiImportOptions devices(Devices where) {
        return new CaiImportOptions(allowCopy, name, Objects.requireNonNull(where), release, consumerStream);
    }

    /**
     * {@return options with that release action}
     * @param owner what keeps the described memory alive, let go of exactly once, from the thread that closes
     *              the imported array (or right after a copy, or before an import error is thrown). The
     *              descriptor itself keeps nothing alive.
     */
    public CaiImportOptions release(Runnable owner) {
        return new CaiImportOptions(allowCopy, name, devices, Objects.requireNonNull(owner), consumerStream);
    }

    /**
     * {@return options with that stream}
     * @param consumer the stream the consumer will use: instead of synchronising the descriptor's stream on the
     *                 host, the import records an event on it and makes {@code consumer} wait for it
     */
    public CaiImportOptions consumerStream(DeviceStream consumer) {
        return new CaiImportOptions(allowCopy, name, devices, release, consumer.handle());
    }

    /** {@return whether copies are allowed} */
    public boolean copyAllowed() {
        return allowCopy;
    }

    /** {@return the field name} */
    public String fieldName() {
        return name;
    }

    /** {@return the devices, {@link Devices#system()} unless set} */
    public Devices devicesToUse() {
        return devices == null ? Devices.system() : devices;
    }

    /** {@return the release action} */
    public Runnable releaseAction() {
        return release;
    }

    /** {@return the consumer stream handle, or null to synchronise on the host} */
    public MemorySegment consumerStreamHandle() {
        return consumerStream;
    }
}
