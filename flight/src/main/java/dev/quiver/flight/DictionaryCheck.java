package dev.quiver.flight;

import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.compare.Range;
import org.apache.arrow.vector.compare.RangeEqualsVisitor;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.dictionary.DictionaryProvider;

/**
 * Arrow Java's Flight writers send each dictionary once, when the stream starts, so every later batch must
 * be readable with the first batch's dictionaries: its own dictionary must be the first one or a prefix of it
 * (an empty batch's empty dictionary is). A batch whose dictionary differs would be misread, so this check
 * compares them value by value and refuses the batch with a message that says so.
 */
final class DictionaryCheck {
    private DictionaryCheck() {}

    /**
     * @param sent       the dictionaries sent at the start of the stream
     * @param batch      the dictionaries of the batch about to be written
     * @param batchIndex the batch's position in the stream, for the message
     * @throws IllegalArgumentException if a dictionary differs from the one sent
     */
    static void sameAsSent(DictionaryProvider sent, DictionaryProvider batch, long batchIndex) {
        for (long id : sent.getDictionaryIds()) {
            Dictionary first = sent.lookup(id);
            Dictionary now = batch.lookup(id);
            if (now == null || !isPrefix(now.getVector(), first.getVector())) {
                throw new IllegalArgumentException("batch " + batchIndex + " has another dictionary (id " + id + ", "
                        + first.getVector().getField() + ") than the first batch: Arrow Java's Flight sends each"
                        + " dictionary once, at the start of a stream, so every batch of a stream must share its dictionaries");
            }
        }
    }

    private static boolean isPrefix(ValueVector shorter, ValueVector longer) {
        int length = shorter.getValueCount();
        return length <= longer.getValueCount()
                && new RangeEqualsVisitor(shorter, longer).rangeEquals(new Range(0, 0, length));
    }
}
