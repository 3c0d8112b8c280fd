package dev.quiver.dlpack;

import dev.quiver.Devices;

import java.util.Objects;

/**
 * How to import a DLPack tensor. Immutable: each method returns a new instance; safe to share between
 * threads. {@link #defaults()}: zero-copy only, field name {@code "dlpack"}, {@link Devices#system()}.
 */
public final class DLPackImportOptions {
    private static final DLPackImportOptions DEFAULTS = new DLPackImportOptions(false, "dlpack", null);

    private final boolean allowCopy;
    private final String name;
    private final Devices devices;

    private DLPackImportOptions(boolean allowCopy, String name, Devices devices) {
        this.allowCopy = allowCopy;
        this.name = name;
        this.devices = devices;
    }

    /** {@return the defaults described above} */
    public static DLPackImportOptions defaults() {
        return DEFAULTS;
    }

    /**
     * {@return options with that choice}
     * @param allow whether a tensor whose layout Arrow cannot share (one byte per boolean, negative or
     *              non-contiguous strides) may be copied, on its own device, into a dense Arrow array; the
     *              deleter is then called as soon as the copy is made
     */
    public DLPackImportOptions allowCopy(boolean allow) {
        return new DLPackImportOptions(allow, name, devices);
    }

    /**
     * {@return options with that name}
     * @param fieldName the name of the imported array's field
     */
    public DLPackImportOptions name(String fieldName) {
        return new DLPackImportOptions(allowCopy, Objects.requireNonNull(fieldName), devices);
    }

    /**
     * {@return options with those devices}
     * @param where where the imported array finds backends (for copies and its later use)
     */
    public DLPackImportOptions devices(Devices where) {
        return new DLPackImportOptions(allowCopy, name, Objects.requireNonNull(where));
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
}
