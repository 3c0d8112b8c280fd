package dev.quiver.share;

import dev.quiver.share.internal.posix.SystemCallException;
import dev.quiver.share.internal.protocol.ErrorCode;
import dev.quiver.share.internal.protocol.ErrorMessage;
import dev.quiver.share.internal.protocol.ProtocolException;

/** Turns what the layers below throw, and ERROR messages, into {@link ShareException}s naming the peer. Stateless. */
final class Failures {
    private Failures() {}

    static ShareException of(RuntimeException e, String peer) {
        if (e instanceof ShareException share) {
            return share;
        }
        if (e instanceof ProtocolException p) {
            return new ShareException(reason(p.code()), peer + " sent " + p.getMessage(), p);
        }
        if (e instanceof SystemCallException s && s.errno() == 11) {   // EAGAIN: SO_RCVTIMEO ran out
            return new ShareException(ShareException.Reason.TIMEOUT, peer + " sent nothing within the receive timeout", s);
        }
        if (e instanceof SystemCallException s) {
            boolean gone = s.errno() == 32 || s.errno() == 104 || s.errno() == 9 || s.errno() == 107;
            return new ShareException(gone ? ShareException.Reason.PEER_GONE : ShareException.Reason.SYSTEM,
                    (gone ? peer + " is gone: " : "talking to " + peer + ": ") + s.getMessage(), s);
        }
        return new ShareException(ShareException.Reason.PROTOCOL, peer + ": " + e, e);
    }

    static ShareException refused(ErrorMessage error, String peer) {
        return new ShareException(reason(error.code()), peer + (error.code() == ErrorCode.SOURCE ? " failed: " : " refused: ")
                + error.reason(), null);
    }

    static ShareException gone(String peer, String during) {
        return new ShareException(ShareException.Reason.PEER_GONE, peer + " closed the connection " + during
                + " (it exited, was killed or closed early)", null);
    }

    static ShareException.Reason reason(ErrorCode code) {
        return switch (code) {
            case VERSION -> ShareException.Reason.VERSION;
            case DEVICE -> ShareException.Reason.DEVICE;
            case PEER_USER -> ShareException.Reason.PEER_USER;
            case PROTOCOL -> ShareException.Reason.PROTOCOL;
            case LIMIT -> ShareException.Reason.LIMIT;
            case SOURCE -> ShareException.Reason.SOURCE;
            case HANDLE_KIND -> ShareException.Reason.HANDLE_KIND;
        };
    }

    static ErrorCode code(ShareException.Reason reason) {
        return switch (reason) {
            case VERSION -> ErrorCode.VERSION;
            case DEVICE -> ErrorCode.DEVICE;
            case PEER_USER -> ErrorCode.PEER_USER;
            case LIMIT -> ErrorCode.LIMIT;
            case SOURCE -> ErrorCode.SOURCE;
            case HANDLE_KIND -> ErrorCode.HANDLE_KIND;
            case PROTOCOL, PEER_GONE, TIMEOUT, SYSTEM -> ErrorCode.PROTOCOL;
        };
    }
}
