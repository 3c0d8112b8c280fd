package dev.quiver.internal.validate;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Random;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link Utf8Scan} against the JDK's strict UTF-8 decoder: on random texts of every kind of character, cut at
 * random places and with random bytes changed, in heap and native memory, both say well formed or not alike
 * (the JDK's decoder reports malformed input and unmappable characters); and across the 1 MiB windows the scan
 * reads through, a character that straddles a window's end is checked whole.
 */
class Utf8ScanTest {
    private static final String[] PIECES = {"a", "Customer#000012345 ", "é", "ß", "€", "東京", "\uD83D\uDE00", "\u07FF", "\u0800", "\uFFFF",
        "\uD800\uDC00", "\uDBFF\uDFFF", "furiously regular deposits ", "0123456789abcdefghijklmnopqrstuvwxyz"};

    @Test
    void agreesWithTheJdksStrictDecoderOnRandomTexts() {
        Random random = new Random(20261127);
        for (int round = 0; round < 20_000; round++) {
            StringBuilder text = new StringBuilder();
            int pieces = random.nextInt(40);
            for (int p = 0; p < pieces; p++) {
                text.append(PIECES[random.nextInt(PIECES.length)]);
            }
            byte[] bytes = text.toString().getBytes(StandardCharsets.UTF_8);
            int changes = random.nextInt(4) == 0 ? 0 : random.nextInt(3);
            for (int c = 0; c < changes && bytes.length > 0; c++) {
                bytes[random.nextInt(bytes.length)] = (byte) random.nextInt(256);
            }
            int from = bytes.length == 0 ? 0 : random.nextInt(bytes.length + 1);
            int end = from + random.nextInt(bytes.length - from + 1);
            boolean wellFormed = jdkSaysWellFormed(bytes, from, end);
            long heap = Utf8Scan.firstMalformed(MemorySegment.ofArray(bytes), from, end);
            assertEquals(wellFormed, heap < 0, () -> "round with " + (end - from) + " bytes: " + hex(bytes, from, end));
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment nativeCopy = arena.allocate(Math.max(1, bytes.length));
                nativeCopy.copyFrom(MemorySegment.ofArray(bytes));
                assertEquals(heap, Utf8Scan.firstMalformed(nativeCopy, from, end));
            }
        }
    }

    @Test
    void aCharacterAcrossAWindowsEndIsCheckedWhole() {
        int size = (1 << 20) + 64;
        for (int at = (1 << 20) - 3; at <= (1 << 20); at++) {
            byte[] bytes = new byte[size];
            java.util.Arrays.fill(bytes, (byte) 'x');
            byte[] emoji = "\uD83D\uDE00".getBytes(StandardCharsets.UTF_8);
            System.arraycopy(emoji, 0, bytes, at, emoji.length);
            assertEquals(Utf8Scan.MULTI_BYTE, Utf8Scan.check(MemorySegment.ofArray(bytes), 0, size), "a whole emoji at " + at);
            bytes[at + 3] = 'x';
            assertEquals(at, Utf8Scan.check(MemorySegment.ofArray(bytes), 0, size), "an emoji cut short at " + at);
        }
    }

    @Test
    void allAsciiIsToldApartFromMultiByte() {
        byte[] ascii = "plain ASCII text, long enough for whole blocks of it: 0123456789012345678901234567890123456789".getBytes(StandardCharsets.US_ASCII);
        assertEquals(Utf8Scan.ASCII, Utf8Scan.check(MemorySegment.ofArray(ascii), 0, ascii.length));
        byte[] accented = "naïve".getBytes(StandardCharsets.UTF_8);
        assertEquals(Utf8Scan.MULTI_BYTE, Utf8Scan.check(MemorySegment.ofArray(accented), 0, accented.length));
    }

    private static boolean jdkSaysWellFormed(byte[] bytes, int from, int end) {
        try {
            StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT).onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes, from, end - from));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }

    private static String hex(byte[] bytes, int from, int end) {
        StringBuilder out = new StringBuilder();
        for (int i = from; i < end; i++) {
            out.append(String.format("%02x ", MemorySegment.ofArray(bytes).get(JAVA_BYTE, i)));
        }
        return out.toString();
    }
}
