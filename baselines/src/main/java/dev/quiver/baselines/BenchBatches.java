package dev.quiver.baselines;

import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The record batches the benchmarks move: N columns of one shape, M rows, nulls every 7th row. All columns
 * hold the same values (one column is built and renamed), so a million-row, 64-column batch stays cheap to
 * build; each column still gets buffers of its own when the batch is exported. Shared by {@code quiver bench}
 * and the JMH benchmarks so both move the same data. Stateless; thread-safe.
 */
public final class BenchBatches {
    private BenchBatches() {}

    /**
     * {@return a struct batch}
     * @param shape   {@code int32}, {@code utf8}, {@code list_int64} or {@code struct} (of int32 and utf8)
     * @param columns number of columns
     * @param rows    number of rows
     */
    public static HostVector batch(String shape, int columns, int rows) {
        List<Object> values = new ArrayList<>(rows);
        for (int r = 0; r < rows; r++) {
            values.add(r % 7 == 0 ? null : value(shape, r));
        }
        HostVector column = HostVector.of(column("c0", shape), values);
        HostVector[] all = new HostVector[columns];
        for (int c = 0; c < columns; c++) {
            all[c] = column.renamed("c" + c);
        }
        return HostVector.struct("batch", all);
    }

    private static Field column(String name, String shape) {
        return switch (shape) {
            case "int32" -> Field.of(name, new ArrowType.Int(32, true), true);
            case "utf8" -> Field.of(name, new ArrowType.Utf8(), true);
            case "list_int64" -> Field.list(name, true, Field.of("item", new ArrowType.Int(64, true), true));
            case "struct" -> Field.struct(name, true, List.of(Field.of("a", new ArrowType.Int(32, true), true),
                    Field.of("b", new ArrowType.Utf8(), true)));
            default -> throw new IllegalArgumentException("unknown shape " + shape);
        };
    }

    private static Object value(String shape, int row) {
        return switch (shape) {
            case "int32" -> (long) row;
            case "utf8" -> "value-" + row;
            case "list_int64" -> List.of((long) row, (long) row + 1);
            default -> {
                Map<String, Object> member = new LinkedHashMap<>();
                member.put("a", (long) row);
                member.put("b", "v" + row);
                yield member;
            }
        };
    }
}
