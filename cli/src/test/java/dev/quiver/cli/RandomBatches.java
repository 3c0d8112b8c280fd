package dev.quiver.cli;

import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/** Random nested record batches (ints, strings, lists of ints and of structs, booleans, with nulls) for tests. */
final class RandomBatches {
    private RandomBatches() {}

    static HostVector nested(Random random, int rows) {
        Field item = Field.of("item", new ArrowType.Int(64, true), true);
        Field point = Field.struct("point", true, List.of(Field.of("x", new ArrowType.FloatingPoint(64), true),
                Field.of("tag", new ArrowType.Utf8(), true)));
        Field batch = Field.struct("batch", false, List.of(
                Field.of("id", new ArrowType.Int(32, true), true),
                Field.of("name", new ArrowType.Utf8(), true),
                Field.list("items", true, item),
                Field.list("points", true, point),
                Field.of("flag", new ArrowType.Bool(), true)));
        List<Object> values = new ArrayList<>();
        for (int r = 0; r < rows; r++) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("id", random.nextInt(10) == 0 ? null : (long) random.nextInt());
            row.put("name", random.nextInt(8) == 0 ? null : "n" + random.nextInt(1_000_000));
            List<Object> items = new ArrayList<>();
            for (int k = random.nextInt(4); k > 0; k--) {
                items.add(random.nextInt(6) == 0 ? null : random.nextLong());
            }
            row.put("items", random.nextInt(9) == 0 ? null : items);
            List<Object> points = new ArrayList<>();
            for (int k = random.nextInt(3); k > 0; k--) {
                Map<String, Object> p = new LinkedHashMap<>();
                p.put("x", random.nextGaussian());
                p.put("tag", random.nextBoolean() ? null : "t" + k);
                points.add(random.nextInt(7) == 0 ? null : p);
            }
            row.put("points", points);
            row.put("flag", random.nextInt(5) == 0 ? null : random.nextBoolean());
            values.add(row);
        }
        return HostVector.of(batch, values);
    }
}
