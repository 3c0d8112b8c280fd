package dev.quiver;

/**
 * What a device is, as its driver reports it ({@link Device#kind()}). {@link DeviceRanking} ranks devices of one
 * type by it: a discrete GPU before an integrated one, an accelerator, a device that does not say, and a CPU
 * implementation of the API (PoCL, lavapipe) last.
 */
public enum DeviceKind {
    /** A GPU with memory of its own. */
    DISCRETE_GPU,
    /** A GPU that shares the host's memory. */
    INTEGRATED_GPU,
    /** Another accelerator (an FPGA, a DSP, an AI accelerator). */
    ACCELERATOR,
    /** The driver does not say, or it is none of the others (a virtual GPU). */
    OTHER,
    /** The host's processors: the CPU itself, or a CPU implementation of a device API. */
    CPU
}
