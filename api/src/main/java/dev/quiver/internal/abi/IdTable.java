package dev.quiver.internal.abi;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;

/**
 * Maps the ids Quiver stores in native memory ({@code private_data} of the structs it exports, a DLPack
 * tensor's {@code manager_ctx}) to their Java state, so that no Java reference is ever stored in native
 * memory. An id is not named again while it or its slot could still be in use (see {@link SlotTable}), so a
 * stale id (a callback after release) finds nothing instead of another entry. Allocates nothing once
 * warm. Thread-safe: any thread may register, look up and remove.
 *
 * @param <T> the state type
 */
public final class IdTable<T> {
    private final SlotTable slots = new SlotTable();

    /** Makes an empty table. */
    public IdTable() {}

    /** @return the id of {@code state}, as a pointer value for {@code private_data} */
    public MemorySegment register(T state) {
        return MemorySegment.ofAddress(slots.add(state, 0, 0));
    }

    /** @return the id of {@code state}, as a number */
    public long registerId(T state) {
        return slots.add(state, 0, 0);
    }

    /**
     * Removes an entry without reading it, for an entry that only one thread ever removes (its owner
     * decides who): cheaper than {@link #remove}, which tolerates racing removers.
     *
     * @param id an id {@link #registerId} returned
     * @return true if this call removed it; false if it was removed already
     */
    public boolean forget(long id) {
        return slots.free(id);
    }

    /** @return the state of a {@code private_data} id, or null if it was removed or never existed */
    public T get(MemorySegment id) {
        return get(id.address());
    }

    /** @return the state of an id, or null if it was removed or never existed */
    @SuppressWarnings("unchecked")
    public T get(long id) {
        int slot = slots.slot(id);
        if (slot < 0) {
            return null;
        }
        Object state = slots.value(slot);
        // the entry may have been removed and its slot reused since it was found: keep what was read only
        // if the slot still holds this id (the fence keeps the read above before the check below)
        VarHandle.acquireFence();
        return slots.slot(id) == slot ? (T) state : null;
    }

    /** @return the state of a {@code private_data} id, removed; null if it was removed already */
    public T remove(MemorySegment id) {
        T state = get(id.address());
        return state != null && slots.remove(id.address()) ? state : null;
    }

    /** @return how many entries are live */
    public int size() {
        return slots.size();
    }
}
