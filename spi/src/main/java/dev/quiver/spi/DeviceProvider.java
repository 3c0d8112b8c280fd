package dev.quiver.spi;

/**
 * A backend plugin, found by {@link java.util.ServiceLoader}. One provider serves one or more device type
 * codes; when two providers serve one code, the usable one with the higher {@link #priority()} wins.
 *
 * <p><b>Construction and threading.</b> Implementations have a public no-argument constructor that does no
 * native work. All methods may be called from any thread; {@link #probe()} is called at most once per
 * discovery by the API, which caches the result, but a provider must tolerate repeated calls.
 */
public interface DeviceProvider {

    /**
     * {@return a short lower-case name, unique among providers, used to choose or exclude the backend
     * (for example {@code cpu}, {@code opencl})}
     */
    String name();

    /**
     * {@return the device type codes this backend serves ({@link DeviceTypeCodes}); a new array each call}
     */
    int[] deviceTypes();

    /**
     * {@return rank against other providers of the same code; higher wins. Quiver's own backends use 0.}
     */
    default int priority() {
        return 0;
    }

    /**
     * What to install or set to make this backend usable, for a user who sees it unavailable: one sentence
     * naming packages, drivers, hardware or system properties (for example "install an OpenCL ICD such as
     * pocl-opencl-icd"). Shown next to the probe's reasons by tools such as {@code quiver devices}. Must do
     * no native work and must not depend on the probe.
     *
     * @return the hint, or an empty string if the backend needs nothing beyond its jar
     */
    default String setupHint() {
        return "";
    }

    /**
     * Loads the vendor library, if any, and enumerates devices. This is the first place the backend may do
     * native work. Never throws: every failure becomes an {@link ProbeResult.Unavailable} reason.
     *
     * @return the devices, or the reasons the backend cannot be used
     */
    ProbeResult probe();
}
