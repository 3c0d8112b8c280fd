package dev.quiver.device.opencl;

import dev.quiver.spi.ProbeResult;

/**
 * Prints what {@link OpenClProvider#probe()} finds, one line per fact, for tests that probe in a fresh JVM
 * with another ICD configuration ({@code OCL_ICD_VENDORS}) or library ({@code quiver.opencl.library}).
 */
final class ProbeReportMain {
    private ProbeReportMain() {}

    public static void main(String[] args) {
        ProbeResult result = new OpenClProvider().probe();
        if (result instanceof ProbeResult.Available available) {
            System.out.println("AVAILABLE " + available.devices().size());
        } else if (result instanceof ProbeResult.Unavailable unavailable) {
            System.out.println("UNAVAILABLE");
            unavailable.reasons().forEach(System.out::println);
        }
    }
}
