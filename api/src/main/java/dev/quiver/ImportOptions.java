package dev.quiver;

import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Optional;

/**
 * How an import takes memory in: the one options type of every import, through the C Device Data interface
 * ({@link Interchange#importDevice(MemorySegment, MemorySegment, ImportOptions)}), the plain C Data interface
 * ({@link Interchange#importPlain}), DLPack ({@link dev.quiver.dlpack.DLPack}) and the CUDA Array Interface
 * ({@link dev.quiver.cai.CudaArrayInterface}).
 *
 * <p>Immutable: each method that takes an argument returns new options; safe to share between threads.
 * {@link #defaults()}: {@link Devices#system()}, the process's {@link ProducerTrust#fromEnvironment() trust},
 * writable unless the producer says otherwise, zero-copy only, the import's own field name, nothing to release,
 * no consumer stream, and decimals checked against their precision.
 *
 * <p>What each option means where:
 * <table class="striped">
 *   <caption>Options by import</caption>
 *   <thead><tr><th>option</th><th>C Device / plain C Data</th><th>DLPack</th><th>CUDA Array Interface</th></tr></thead>
 *   <tbody>
 *   <tr><td>{@link #devices(Devices)}</td><td>backends for events and copies</td><td>the same</td><td>the same</td></tr>
 *   <tr><td>{@link #trust(ProducerTrust)}</td><td>how far host pointers are trusted</td><td colspan="2">not
 *       used: a tensor's pointers are device pointers or the producer's own memory</td></tr>
 *   <tr><td>{@link #readOnly(boolean)}</td><td>the array refuses writes</td><td colspan="2">the array refuses
 *       writes, also when the producer's read-only flag is clear</td></tr>
 *   <tr><td>{@link #allowCopy(boolean)}, {@link #name(String)}</td><td>not used (the schema names the field; no
 *       layout needs a copy)</td><td colspan="2">layouts Arrow cannot share may be copied; the field's name
 *       ({@code "dlpack"}, {@code "cai"} unless set)</td></tr>
 *   <tr><td>{@link #decimalPrecision(boolean)}</td><td>whether validation checks decimals' digits</td><td
 *       colspan="2">not used: tensors have no decimals</td></tr>
 *   <tr><td>{@link #release(Runnable)}, {@link #consumerStream(DeviceStream)}</td><td colspan="2">refused
 *       ({@code IllegalArgumentException}): the structs carry their own release (or deleter) and event</td>
 *       <td>what keeps the memory alive; the stream that waits for the descriptor's stream</td></tr>
 *   </tbody>
 * </table>
 *
 * {@snippet :
 * ImportOptions checked = ImportOptions.defaults().devices(devices).trust(ProducerTrust.UNTRUSTED);
 * try (DeviceArray array = Interchange.importDevice(deviceArray, schema, checked)) {
 *     // ...
 * }
 * }
 */
public final class ImportOptions {
    private static final Runnable NOTHING = () -> { };
    private static final ImportOptions DEFAULTS = new ImportOptions(null, null, false, false, null, NOTHING, null, true);

    private final Devices devices;
    private final ProducerTrust trust;
    private final boolean readOnly;
    private final boolean allowCopy;
    private final String name;
    private final Runnable release;
    private final MemorySegment consumerStream;
    private final boolean decimalPrecision;

    private ImportOptions(Devices devices, ProducerTrust trust, boolean readOnly, boolean allowCopy, String name,
                          Runnable release, MemorySegment consumerStream, boolean decimalPrecision) {
        this.devices = devices;
        this.trust = trust;
        this.readOnly = readOnly;
        this.allowCopy = allowCopy;
        this.name = name;
        this.release = release;
        this.consumerStream = consumerStream;
        this.decimalPrecision = decimalPrecision;
    }

    /** {@return the defaults described above} */
    public static ImportOptions defaults() {
        return DEFAULTS;
    }

    /**
     * {@return the defaults with those devices: the common case of a test or an application with its own selection}
     * @param where where the imported array finds backends
     */
    public static ImportOptions on(Devices where) {
        return DEFAULTS.devices(where);
    }

    /**
     * {@return options with those devices}
     * @param where where the imported array finds backends for its events and copies
     */
    public ImportOptions devices(Devices where) {
        return new ImportOptions(Objects.requireNonNull(where, "devices"), trust, readOnly, allowCopy, name, release, consumerStream, decimalPrecision);
    }

    /**
     * {@return options with that trust}
     * @param pointers whether a producer's host pointers are trusted or checked against the process's readable mappings
     */
    public ImportOptions trust(ProducerTrust pointers) {
        return new ImportOptions(devices, Objects.requireNonNull(pointers, "trust"), readOnly, allowCopy, name, release, consumerStream, decimalPrecision);
    }

    /**
     * {@return options with that choice}
     * @param refuseWrites whether the imported array is read-only whatever its producer says (see
     *                     {@link DeviceArray#isReadOnly()}); false leaves it to the producer
     */
    public ImportOptions readOnly(boolean refuseWrites) {
        return new ImportOptions(devices, trust, refuseWrites, allowCopy, name, release, consumerStream, decimalPrecision);
    }

    /**
     * {@return options with that choice}
     * @param allow whether a tensor layout Arrow cannot share (one byte per boolean, negative or non-contiguous
     *              strides, a CAI mask) may be copied, on its own device, into a dense Arrow array; the producer's
     *              memory is then let go of as soon as the copy is made
     */
    public ImportOptions allowCopy(boolean allow) {
        return new ImportOptions(devices, trust, readOnly, allow, name, release, consumerStream, decimalPrecision);
    }

    /**
     * {@return options with that name}
     * @param fieldName the name of the field of an imported tensor
     */
    public ImportOptions name(String fieldName) {
        return new ImportOptions(devices, trust, readOnly, allowCopy, Objects.requireNonNull(fieldName, "name"), release, consumerStream, decimalPrecision);
    }

    /**
     * {@return options with that release action}
     * @param owner what keeps memory described by a CUDA Array Interface descriptor alive, let go of exactly once,
     *              from the thread that closes the imported array (or right after a copy, or before an import error
     *              is thrown). The descriptor itself keeps nothing alive.
     */
    public ImportOptions release(Runnable owner) {
        return new ImportOptions(devices, trust, readOnly, allowCopy, name, Objects.requireNonNull(owner, "release"), consumerStream, decimalPrecision);
    }

    /**
     * {@return options with that stream}
     * @param consumer the stream the consumer of a CUDA Array Interface import will use: instead of synchronising
     *                 the descriptor's stream on the host, the import records an event on it and makes
     *                 {@code consumer} wait for it
     */
    public ImportOptions consumerStream(DeviceStream consumer) {
        return new ImportOptions(devices, trust, readOnly, allowCopy, name, release, consumer.handle(), decimalPrecision);
    }

    /**
     * {@return options with that choice}
     * @param checked whether full validation refuses a decimal whose unscaled value has more digits than its type's
     *                precision (the default, as Arrow C++'s full validation does). False accepts every value that
     *                fits the type's bit width: for producers that export wider integers as decimals, such as
     *                DuckDB's {@code HUGEINT} and {@code UHUGEINT} as {@code decimal(38, 0)}, whose extreme values
     *                have 39 digits. Every other check stays; the arrays imported (and their views and copies) keep
     *                the choice for the validation their readers run
     */
    public ImportOptions decimalPrecision(boolean checked) {
        return new ImportOptions(devices, trust, readOnly, allowCopy, name, release, consumerStream, checked);
    }

    /** {@return whether full validation of the imported arrays checks decimals against their precision} */
    public boolean checksDecimalPrecision() {
        return decimalPrecision;
    }

    /** {@return the devices, {@link Devices#system()} unless set} */
    public Devices devices() {
        return devices == null ? Devices.system() : devices;
    }

    /** {@return the trust, {@link ProducerTrust#fromEnvironment()} unless set} */
    public ProducerTrust trust() {
        return trust == null ? ProducerTrust.fromEnvironment() : trust;
    }

    /** {@return whether the imported array refuses writes whatever its producer says} */
    public boolean readOnly() {
        return readOnly;
    }

    /** {@return whether copies are allowed} */
    public boolean copyAllowed() {
        return allowCopy;
    }

    /** {@return the field name set, empty for the import's own} */
    public Optional<String> fieldName() {
        return Optional.ofNullable(name);
    }

    /** {@return the release action, empty unless set} */
    public Optional<Runnable> releaseAction() {
        return release == NOTHING ? Optional.empty() : Optional.of(release);
    }

    /** {@return the consumer stream handle, or null to synchronise on the host} */
    public MemorySegment consumerStreamHandle() {
        return consumerStream;
    }

    /** {@return {@code array}, with what these options say of its later validation} @param array a new import */
    DeviceArray appliedTo(DeviceArray array) {
        array.decimalPrecisionChecked = decimalPrecision;
        return array;
    }

    /**
     * Refuses the options that only a CUDA Array Interface import can use, for an import of structs that carry
     * their own release callback and event.
     *
     * @param what the import, for the message
     * @throws IllegalArgumentException naming the option set
     */
    void checkForStructs(String what) {
        if (release != NOTHING) {
            throw new IllegalArgumentException("ImportOptions.release is for CUDA Array Interface imports: " + what
                    + " carries its own release callback");
        }
        if (consumerStream != null) {
            throw new IllegalArgumentException("ImportOptions.consumerStream is for CUDA Array Interface imports: " + what
                    + " carries its own sync_event, which the imported array's syncEvent() hands over");
        }
    }

    @Override
    public String toString() {
        return "ImportOptions[devices=" + (devices == null ? "system" : devices) + ", trust=" + (trust == null ? "environment" : trust)
                + ", readOnly=" + readOnly + ", allowCopy=" + allowCopy + ", name=" + (name == null ? "default" : name)
                + (release == NOTHING ? "" : ", release") + (consumerStream == null ? "" : ", consumerStream")
                + (decimalPrecision ? "" : ", decimals within their bit width") + "]";
    }
}
