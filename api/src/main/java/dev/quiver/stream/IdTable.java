package dev.quiver.stream;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Maps the {@code private_data} ids of the stream structs Quiver fills to their Java state, so that no Java
 * reference is stored in native memory. Ids are never reused, so a stale id (a callback after release)
 * finds nothing instead of another stream. Thread-safe.
 *
 * @param <T> the state type
 */
final class IdTable<T> {
    private final AtomicLong next = new AtomicLong(1);
    private final ConcurrentHashMap<Long, T> live = new ConcurrentHashMap<>();

    /** @return the id of {@code state}, as a pointer value for {@code private_data} */
    MemorySegment register(T state) {
        long id = next.getAndIncrement();
        live.put(id, state);
        return MemorySegment.ofAddress(id);
    }

    /** @return the state of a {@code private_data} id, or null if it was removed or never existed */
    T get(MemorySegment id) {
        return live.get(id.address());
    }

    /** @return the state of a {@code private_data} id, removed; null if it was removed already */
    T remove(MemorySegment id) {
        return live.remove(id.address());
    }

    /** @return how many entries are live */
    int size() {
        return live.size();
    }
}
