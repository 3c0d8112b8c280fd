package dev.quiver;

import java.util.List;

/**
 * Probes providers side by side: each allowed provider but the last on a thread of its own, the last on the
 * caller's, which then waits for every outcome. Probes are mostly library loading, driver start-up and class
 * loading, which overlap well. A probe that throws an error on its own thread is left unprobed there and run
 * again on the caller's, so that the caller sees the error as it would without the threads. Stateless;
 * thread-safe.
 */
final class ParallelProbes {
    private ParallelProbes() {}

    /** @param probes the providers to probe; those probed already are not probed again */
    static void probeAll(List<ProviderProbe> probes) {
        List<ProviderProbe> allowed = probes.stream().filter(ProviderProbe::allowed).toList();
        for (int i = 0; i < allowed.size() - 1; i++) {
            ProviderProbe probe = allowed.get(i);
            Thread.ofPlatform().daemon().name("quiver-probe-" + probe.name()).start(() -> outcomeOrNothing(probe));
        }
        if (!allowed.isEmpty()) {
            allowed.getLast().outcome();
        }
        for (ProviderProbe probe : probes) {
            probe.outcome();
        }
    }

    private static void outcomeOrNothing(ProviderProbe probe) {
        try {
            probe.outcome();
        } catch (Throwable e) {
            // left unset: the caller probes again on its own thread and gets the error there
        }
    }
}
