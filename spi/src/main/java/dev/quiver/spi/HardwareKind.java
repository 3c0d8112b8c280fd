package dev.quiver.spi;

/**
 * What a device is, as its driver reports it, for ranking devices of one type: a discrete GPU before an
 * integrated one before a CPU implementation of the same API.
 */
public enum HardwareKind {
    /** A GPU with memory of its own. */
    DISCRETE_GPU,
    /** A GPU that shares the host's memory. */
    INTEGRATED_GPU,
    /** Another accelerator (an FPGA, a DSP, an AI accelerator). */
    ACCELERATOR,
    /** The host's processors, as a CPU implementation of a device API (PoCL, lavapipe) or the CPU itself. */
    CPU,
    /** The driver does not say, or it is none of the above (a virtual GPU). */
    OTHER
}
