package dev.quiver.internal.backend;

import dev.quiver.spi.BackendDevice;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The checked view of every backend device in use, one per device (so that what one view allocated, another
 * does not mistake for foreign memory), and the lookups across them that tell which device a handle belongs
 * to. Views are held weakly: a device nobody uses any more is forgotten with its view.
 *
 * <p>Thread-safe. Making a view takes a lock; the lookups take none and allocate nothing.
 */
final class CheckedDevices {
    private static final Map<BackendDevice, WeakReference<CheckedBackendDevice>> VIEWS = new WeakHashMap<>();
    @SuppressWarnings({"unchecked", "rawtypes"})   // a generic array: created raw
    private static volatile WeakReference<CheckedBackendDevice>[] all = new WeakReference[0];

    private CheckedDevices() {}

    /**
     * @param backend a backend device
     * @return its checked view, made on first request
     */
    static synchronized CheckedBackendDevice of(BackendDevice backend) {
        WeakReference<CheckedBackendDevice> known = VIEWS.get(backend);
        CheckedBackendDevice view = known == null ? null : known.get();
        if (view == null) {
            view = new CheckedBackendDevice(backend);
            WeakReference<CheckedBackendDevice> reference = new WeakReference<>(view);
            VIEWS.put(backend, reference);
            register(reference);
        }
        return view;
    }

    /**
     * @param kind    what the handle is
     * @param address the handle
     * @param asking  the view asking, left out of the search
     * @return the other view that made or adopted the handle and still holds it, or null
     */
    static CheckedBackendDevice holderOf(HandleKind kind, long address, CheckedBackendDevice asking) {
        for (WeakReference<CheckedBackendDevice> reference : all) {
            CheckedBackendDevice view = reference.get();
            if (view != null && view != asking && view.holds(kind, address)) {
                return view;
            }
        }
        return null;
    }

    /** Publishes a new view, dropping the references of views already collected. */
    @SuppressWarnings({"unchecked", "rawtypes"})   // a generic array: created raw
    private static void register(WeakReference<CheckedBackendDevice> reference) {
        List<WeakReference<CheckedBackendDevice>> kept = new ArrayList<>();
        for (WeakReference<CheckedBackendDevice> existing : all) {
            if (existing.get() != null) {
                kept.add(existing);
            }
        }
        kept.add(reference);
        all = kept.toArray(new WeakReference[0]);
    }
}
