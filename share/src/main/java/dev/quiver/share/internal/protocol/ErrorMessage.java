package dev.quiver.share.internal.protocol;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The body of ERROR: a u32 {@link ErrorCode} and a length-prefixed UTF-8 reason of at most 4096 bytes. Its
 * layout is the same in every protocol version, so a refusal of the version itself is understood.
 *
 * @param code   the code
 * @param reason what was wrong
 */
public record ErrorMessage(ErrorCode code, String reason) {
    /** The most bytes of a reason. */
    public static final int MAX_REASON = 4096;

    /** {@return the body, the reason cut to {@link #MAX_REASON} bytes} */
    public byte[] encode() {
        byte[] text = reason.getBytes(StandardCharsets.UTF_8);
        return new ByteWriter().u32(code.wire()).blob(Arrays.copyOf(text, Math.min(text.length, MAX_REASON))).toByteArray();
    }

    /**
     * {@return the ERROR in {@code body}}
     * @param body the received body
     */
    public static ErrorMessage decode(byte[] body) {
        ByteReader in = new ByteReader(body, "ERROR");
        ErrorCode code = ErrorCode.of(in.u32("code"));
        int length = in.count(MAX_REASON, "reason length");
        return new ErrorMessage(code, new String(in.bytes(length, "reason"), StandardCharsets.UTF_8));
    }
}
