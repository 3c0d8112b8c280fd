package dev.quiver.check;

/** The C signatures of producer functions that {@link Conformance#checkProducer} can call. */
public enum ProducerSignature {
    /** {@code int f(struct ArrowDeviceArray* out)}: the array alone; its type is not known to the consumer. */
    DEVICE_ARRAY("int f(struct ArrowDeviceArray* out)"),
    /** {@code int f(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema)}. */
    DEVICE_ARRAY_WITH_SCHEMA("int f(struct ArrowDeviceArray* out, struct ArrowSchema* out_schema)"),
    /** {@code int f(struct ArrowDeviceArrayStream* out)}. */
    DEVICE_ARRAY_STREAM("int f(struct ArrowDeviceArrayStream* out)");

    private final String c;

    ProducerSignature(String c) {
        this.c = c;
    }

    /** {@return the C declaration} */
    public String c() {
        return c;
    }
}
