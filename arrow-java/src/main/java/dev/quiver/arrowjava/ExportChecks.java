package dev.quiver.arrowjava;

import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.complex.DenseUnionVector;
import org.apache.arrow.vector.complex.UnionVector;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;

import java.util.Arrays;
import java.util.List;

/**
 * What is checked before an Arrow Java vector is exported, so that nothing half-exported has to be undone and
 * nothing inconsistent reaches a consumer: every dictionary an encoded field refers to is at hand, and Arrow
 * Java's unions describe their own data. Arrow Java's {@link DenseUnionVector} exports its schema's members
 * sorted by type id but its array's children in declaration order, and its sparse {@link UnionVector} reports
 * each member's minor-type ordinal as its type id whatever ids its type buffer holds (as after importing a
 * union with other ids); either would pair data with the wrong member.
 */
final class ExportChecks {
    private static final int MAX_DEPTH = 64;

    private ExportChecks() {}

    /**
     * @param vector       a vector about to be exported
     * @param dictionaries the provider, or null
     * @throws IllegalArgumentException naming the first offending field
     */
    static void exportable(FieldVector vector, DictionaryProvider dictionaries) {
        check(vector, dictionaries, vector.getName(), 0);
    }

    private static void check(FieldVector vector, DictionaryProvider dictionaries, String path, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException(path + ": vectors nest deeper than " + MAX_DEPTH + " levels");
        }
        Field field = vector.getField();
        DictionaryEncoding encoding = field.getDictionary();
        if (encoding != null) {
            if (dictionaries == null) {
                throw new IllegalArgumentException(path + " is dictionary-encoded (dictionary id " + encoding.getId()
                        + ") but no DictionaryProvider was given");
            }
            Dictionary dictionary = dictionaries.lookup(encoding.getId());
            if (dictionary == null) {
                throw new IllegalArgumentException(path + " is dictionary-encoded with dictionary id " + encoding.getId()
                        + ", which the DictionaryProvider does not have");
            }
            check(dictionary.getVector(), dictionaries, path + ".dictionary", depth + 1);
        }
        if (vector instanceof DenseUnionVector dense) {
            requireMembersInSchemaOrder(dense, path);
        } else if (vector instanceof UnionVector sparse) {
            requireDeclaredTypeIds(sparse, path);
        }
        List<FieldVector> children = vector.getChildrenFromFields();
        for (int k = 0; k < children.size(); k++) {
            FieldVector child = children.get(k);
            check(child, dictionaries, path + ".children[" + k + "](" + child.getName() + ")", depth + 1);
        }
    }

    private static void requireMembersInSchemaOrder(DenseUnionVector union, String path) {
        List<String> inSchema = union.getField().getChildren().stream().map(Field::getName).toList();
        List<String> inArray = union.getChildrenFromFields().stream().map(FieldVector::getName).toList();
        if (!inSchema.equals(inArray)) {
            throw new IllegalArgumentException(path + ": Arrow Java would export this dense union's members as " + inSchema
                    + " in the schema but " + inArray + " in the array; declare its type ids in ascending order");
        }
    }

    private static void requireDeclaredTypeIds(UnionVector union, String path) {
        int[] declared = ((ArrowType.Union) union.getField().getType()).getTypeIds();
        boolean[] known = new boolean[128];
        Arrays.stream(declared).forEach(id -> known[id] = true);
        for (int i = 0; i < union.getValueCount(); i++) {
            int id = union.getTypeValue(i);
            if (id < 0 || !known[id]) {
                throw new IllegalArgumentException(path + "[" + i + "] has type id " + id + ", but Arrow Java would export the"
                        + " union's type ids as " + Arrays.toString(declared) + " (the minor-type ordinals of its members)");
            }
        }
    }
}
