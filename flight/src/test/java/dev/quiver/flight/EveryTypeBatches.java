package dev.quiver.flight;

import dev.quiver.arrowjava.RandomValues;
import dev.quiver.arrowjava.TypeCatalogue;
import dev.quiver.host.HostVector;
import dev.quiver.type.Field;

import java.util.List;

/**
 * The every-type stream both JVMs agree on without talking: one column per type of the Arrow Java type
 * catalogue, random values from seeds fixed by column and batch, batches of {@link #ROWS} rows.
 */
public final class EveryTypeBatches {
    /** Rows of each batch: a full one and an empty one (which refers to no dictionary entry). */
    public static final List<Integer> ROWS = List.of(37, 0);

    private EveryTypeBatches() {}

    /** @return the columns */
    public static List<Field> columns() {
        return TypeCatalogue.everyType();
    }

    /**
     * @param column a column
     * @param batch  a batch index
     * @return the column's values in that batch
     */
    public static List<Object> values(Field column, int batch) {
        return new RandomValues(column.name().hashCode() * 1_000_003L + batch).of(column, ROWS.get(batch));
    }

    /**
     * @param batch a batch index
     * @return the batch as a struct vector on the host
     */
    public static HostVector batch(int batch) {
        return HostVector.struct("batch", columns().stream().map(c -> HostVector.of(c, values(c, batch))).toArray(HostVector[]::new));
    }

    /** @return the schema of every batch */
    public static Field schema() {
        return batch(1).field();
    }
}
