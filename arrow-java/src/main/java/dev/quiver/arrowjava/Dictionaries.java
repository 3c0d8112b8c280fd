package dev.quiver.arrowjava;

import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;

/** Checks, before anything is exported, that every dictionary an Arrow Java field refers to is at hand. */
final class Dictionaries {
    private static final int MAX_DEPTH = 64;

    private Dictionaries() {}

    /**
     * @param field        an Arrow Java field
     * @param dictionaries the provider, or null
     * @throws IllegalArgumentException naming the first encoded field whose dictionary is missing
     */
    static void requireAll(Field field, DictionaryProvider dictionaries) {
        require(field, dictionaries, field.getName(), 0);
    }

    private static void require(Field field, DictionaryProvider dictionaries, String path, int depth) {
        if (depth > MAX_DEPTH) {
            throw new IllegalArgumentException(path + ": fields nest deeper than " + MAX_DEPTH + " levels");
        }
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
            require(dictionary.getVector().getField(), dictionaries, path + ".dictionary", depth + 1);
        }
        for (int k = 0; k < field.getChildren().size(); k++) {
            Field child = field.getChildren().get(k);
            require(child, dictionaries, path + ".children[" + k + "](" + child.getName() + ")", depth + 1);
        }
    }
}
