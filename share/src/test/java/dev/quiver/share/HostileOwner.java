package dev.quiver.share;

import dev.quiver.share.internal.posix.UnixSocket;
import dev.quiver.share.internal.protocol.Connection;
import dev.quiver.share.internal.protocol.DeviceName;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.Handshake;
import dev.quiver.share.internal.protocol.Message;
import dev.quiver.share.internal.protocol.MessageType;
import dev.quiver.share.internal.protocol.SchemaCodec;
import dev.quiver.type.Field;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * An owner that speaks the protocol's framing but sends what a test scripts, to check what a {@link ShareClient}
 * refuses. It accepts one connection, reads HELLO, answers with the WELCOME and SCHEMA given, waits for the
 * receiver's first REQUEST (as an owner must before its first BATCH), runs the script, then reads what the
 * receiver sends back until it closes: the ERROR it sent, if any, is {@link #errorSent()}.
 */
final class HostileOwner implements AutoCloseable {
    static final DeviceName CPU = new DeviceName(1, -1, DeviceName.NO_UUID);

    private final Path directory;
    private final UnixSocket listener;
    private final CompletableFuture<ErrorMessage> errorSent = new CompletableFuture<>();

    HostileOwner(Handshake.Welcome welcome, Field schema, Consumer<Connection> script) throws Exception {
        directory = Files.createTempDirectory("quiver-hostile", PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        listener = UnixSocket.listen(directory.resolve("s"), 1);
        Thread.ofPlatform().daemon().start(() -> {
            try (Connection connection = new Connection(listener.accept())) {
                connection.receive();   // HELLO
                try {
                    connection.send(MessageType.WELCOME, welcome.encode());
                    connection.send(MessageType.SCHEMA, SchemaCodec.encode(schema));
                    if (readUntil(connection, MessageType.REQUEST)) {
                        script.accept(connection);
                    }
                } catch (RuntimeException receiverLeft) {
                    // a receiver that refuses the WELCOME may send its ERROR and close before the rest is sent
                }
                readUntil(connection, null);
                errorSent.complete(null);
            } catch (RuntimeException e) {
                errorSent.complete(null);
            }
        });
    }

    /** Reads the receiver's messages until one of {@code type} (true) or the end (false), keeping the first ERROR. */
    private boolean readUntil(Connection connection, MessageType type) {
        for (Message message = connection.receive(); message != null; message = connection.receive()) {
            if (message.type() == MessageType.ERROR) {
                errorSent.complete(ErrorMessage.decode(message.body()));
            } else if (message.type() == type) {
                return true;
            }
        }
        return false;
    }

    Path socket() {
        return directory.resolve("s");
    }

    ErrorMessage errorSent() throws Exception {
        return errorSent.get(30, java.util.concurrent.TimeUnit.SECONDS);
    }

    @Override
    public void close() throws java.io.IOException {
        listener.close();
        Files.deleteIfExists(socket());
        Files.deleteIfExists(directory);
    }
}
