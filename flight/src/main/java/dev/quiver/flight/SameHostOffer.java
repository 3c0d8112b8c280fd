package dev.quiver.flight;

import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.ByteBuffer;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;

/**
 * A server's answer to the {@value DeviceFlightProducer#SHARE_ACTION} action: where the stream waits to be
 * received as memory-file handles, and the identity of the host that offers it (see {@link HostIdentity}). On
 * the wire, UTF-8 text of three lines: {@code quiver.share 1}, {@code host=IDENTITY}, {@code socket=PATH}.
 * What a server answers is untrusted: {@link #decode} refuses anything else, naming what was wrong.
 *
 * @param host   the server's host identity
 * @param socket the Unix socket to connect to, absolute
 */
record SameHostOffer(String host, Path socket) {
    private static final String HEADER = "quiver.share 1";
    /** Longer than any identity and any Unix socket path (107 bytes) with room to spare. */
    static final int MAX_BYTES = 4096;

    /** {@return the answer's bytes} */
    byte[] encode() {
        return (HEADER + "\nhost=" + host + "\nsocket=" + socket + "\n").getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Reads a server's answer.
     *
     * @param bytes the body of the action's result
     * @return the offer
     * @throws IllegalArgumentException naming what is wrong with it
     */
    static SameHostOffer decode(byte[] bytes) {
        if (bytes.length > MAX_BYTES) {
            throw new IllegalArgumentException("the answer is " + bytes.length + " bytes, more than " + MAX_BYTES);
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("the answer is not UTF-8 text", e);
        }
        String[] lines = text.split("\n", -1);
        if (lines.length != 4 || !lines[3].isEmpty()) {
            throw new IllegalArgumentException("the answer has " + (lines.length - 1) + " line(s), not 3");
        }
        if (!HEADER.equals(lines[0])) {
            throw new IllegalArgumentException("the answer's first line is \"" + abbreviated(lines[0]) + "\", not \"" + HEADER + "\"");
        }
        String host = value(lines[1], "host");
        String socket = value(lines[2], "socket");
        Path path;
        try {
            path = Path.of(socket);
        } catch (InvalidPathException e) {
            throw new IllegalArgumentException("the answer's socket \"" + abbreviated(socket) + "\" is not a path", e);
        }
        if (!path.isAbsolute()) {
            throw new IllegalArgumentException("the answer's socket \"" + abbreviated(socket) + "\" is not an absolute path");
        }
        return new SameHostOffer(host, path);
    }

    private static String value(String line, String key) {
        if (!line.startsWith(key + "=") || line.length() == key.length() + 1) {
            throw new IllegalArgumentException("the answer's line \"" + abbreviated(line) + "\" is not " + key + "=VALUE");
        }
        return line.substring(key.length() + 1);
    }

    private static String abbreviated(String text) {
        return text.length() <= 80 ? text : text.substring(0, 80) + "...";
    }
}
