package dev.quiver.flight;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The answer to the same-host action, read as untrusted input: what is refused names what was wrong. */
class SameHostOfferTest {
    @Test
    void anOfferReadsBackAsWritten() {
        SameHostOffer offer = new SameHostOffer(HostIdentity.current().orElseThrow(), Path.of("/tmp/quiver-share-1/share.sock"));
        assertEquals(offer, SameHostOffer.decode(offer.encode()));
        assertTrue(offer.host().contains("boot=") && offer.host().contains("uid="), offer.host());
    }

    @Test
    void aMalformedAnswerIsRefusedWithTheReason() {
        assertRefused("quiver.share 2\nhost=h\nsocket=/s\n", "first line");
        assertRefused("quiver.share 1\nhost=h\n", "2 line(s), not 3");
        assertRefused("quiver.share 1\nhost=h\nsocket=/s\nextra\n", "4 line(s), not 3");
        assertRefused("quiver.share 1\nhost=\nsocket=/s\n", "is not host=VALUE");
        assertRefused("quiver.share 1\nsocket=/s\nhost=h\n", "is not host=VALUE");
        assertRefused("quiver.share 1\nhost=h\nsocket=s\n", "not an absolute path");
        assertRefused("quiver.share 1\nhost=h\nsocket=/s\0x\n", "not a path");
        assertRefused("x".repeat(SameHostOffer.MAX_BYTES + 1), "more than " + SameHostOffer.MAX_BYTES);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SameHostOffer.decode(new byte[] {(byte) 0xc3}));
        assertTrue(e.getMessage().contains("not UTF-8"), e.getMessage());
    }

    private static void assertRefused(String answer, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> SameHostOffer.decode(answer.getBytes(StandardCharsets.UTF_8)));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
