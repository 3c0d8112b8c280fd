package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The batches two-process tests hand over: a struct of int64, utf8 and float64 columns with nulls and a list of
 * int32, made from a seed so that both processes know what to expect. Stateless.
 */
final class Batches {
    private Batches() {}

    static HostVector table(int seed, int rows) {
        Long[] ids = new Long[rows];
        String[] names = new String[rows];
        Double[] scores = new Double[rows];
        Integer[] lengths = new Integer[rows];
        int elements = 0;
        for (int i = 0; i < rows; i++) {
            ids[i] = (long) seed * 1_000_000 + i;
            names[i] = i % 7 == 3 ? null : "row-" + seed + "-" + i + (i % 5 == 0 ? "-ü" : "");
            scores[i] = i % 4 == 1 ? null : i * 0.5 + seed;
            lengths[i] = i % 9 == 8 ? null : i % 3;
            elements += lengths[i] == null ? 0 : lengths[i];
        }
        Integer[] tags = new Integer[elements];
        for (int i = 0; i < elements; i++) {
            tags[i] = seed + i;
        }
        return HostVector.struct("batch", HostVector.int64("id", ids), HostVector.utf8("name", names),
                HostVector.float64("score", scores), HostVector.list("tags", HostVector.int32("item", tags), lengths));
    }

    /** {@return the values of {@code array} as text, read through the public reader} */
    static String describe(DeviceArray array) {
        return ArrayReader.of(array).values().toString();
    }

    /** {@return a digest of {@link #describe}, for lines between processes} */
    static String digest(DeviceArray array) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(describe(array).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static String expectedDigest(int seed, int rows) {
        try (DeviceArray array = table(seed, rows).toDeviceArray()) {
            return digest(array);
        }
    }
}
