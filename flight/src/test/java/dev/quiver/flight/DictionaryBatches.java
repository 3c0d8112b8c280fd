package dev.quiver.flight;

import dev.quiver.host.HostVector;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;
import dev.quiver.type.Metadata;

import java.util.ArrayList;
import java.util.List;

/**
 * Streams of dictionary-encoded columns: {@code shared} batches all begin with the same values in the same
 * order, so their dictionaries agree (a later one may be a prefix of the first); in {@code changing} the
 * second batch's dictionary starts with another value.
 */
final class DictionaryBatches {
    static final int BATCHES = 3;
    private static final List<String> COLOURS = List.of("red", "green", "blue", "cyan");

    private DictionaryBatches() {}

    /** @return the struct field of every batch */
    static Field schema() {
        return batch(0, false).field();
    }

    /**
     * @param batch    the batch index
     * @param changing whether batches after the first start with another dictionary
     * @return the batch on the host
     */
    static HostVector batch(int batch, boolean changing) {
        return HostVector.struct("batch",
                HostVector.of(dictionary("colour", new ArrowType.Int(32, true), new ArrowType.Utf8()), colours(batch, changing)),
                HostVector.of(dictionary("size", new ArrowType.Int(8, false), new ArrowType.Int(64, true)), sizes(batch, changing)));
    }

    /** @return the values of the {@code colour} column of a batch */
    static List<Object> colours(int batch, boolean changing) {
        List<Object> out = new ArrayList<>(changing && batch > 0 ? List.of("cyan", "red") : COLOURS.subList(0, 4 - batch % 2));
        for (int i = 0; i < 10 + batch; i++) {
            out.add(i % 4 == 3 ? null : out.get((i * 7 + batch) % 2));
        }
        return out;
    }

    /** @return the values of the {@code size} column of a batch, as many as its colours */
    static List<Object> sizes(int batch, boolean changing) {
        int rows = colours(batch, changing).size();
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < rows; i++) {
            out.add(i < 3 ? (long) (i + 1) * 1000 : (long) ((i + batch) % 3 + 1) * 1000);
        }
        return out;
    }

    private static Field dictionary(String name, ArrowType.Int index, ArrowType values) {
        return new Field(name, index, true, List.of(), Metadata.EMPTY, new Field.DictionaryEncoding(Field.of("values", values, true), false));
    }
}
