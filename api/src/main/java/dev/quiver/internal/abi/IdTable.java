package dev.quiver.internal.abi;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Maps the ids Quiver stores in native memory ({@code private_data} of the structs it exports, a DLPack
 * tensor's {@code manager_ctx}) to their Java state, so that no Java reference is ever stored in native
 * memory. Ids are never reused, so a stale id (a callback after release) finds nothing instead of another
 * export. Thread-safe: any thread may register, look up and remove.
 *
 * @param <T> the state type
 */
public final class IdTable<T> {
    private final AtomicLong next = new AtomicLong(1);
    private final ConcurrentHashMap<Long, T> live = new ConcurrentHashMap<>();

    /** Makes an empty table. */
    public IdTable() {}

    /** @return the id of {@code state}, as a pointer value for {@code private_data} */
    public MemorySegment register(T state) {
        long id = next.getAndIncrement();
        live.put(id, state);
        return MemorySegment.ofAddress(id);
    }

    /** @return the state of a {@code private_data} id, or null if it was removed or never existed */
    public T get(MemorySegment id) {
        return live.get(id.address());
    }

    /** @return the state of a {@code private_data} id, removed; null if it was removed already */
    public T remove(MemorySegment id) {
        return live.remove(id.address());
    }

    /** @return how many entries are live */
    public int size() {
        return live.size();
    }
}
