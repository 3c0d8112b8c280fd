package dev.quiver.share.internal.protocol;

/**
 * The body of RELEASED and REGION_CLOSED (docs/SHARING.md): {@code u32 count} (1 to {@link Limits#MAX_IDS}),
 * {@code u32 reserved} (0), then {@code count} ids of {@code u64}, none of them 0. Stateless.
 */
public final class IdList {
    private IdList() {}

    /**
     * {@return the body}
     * @param ids     the ids, from {@code ids[0]}
     * @param count   how many of them, 1 to {@link Limits#MAX_IDS}
     */
    public static byte[] encode(long[] ids, int count) {
        ByteWriter out = new ByteWriter().u32(count).u32(0);
        for (int i = 0; i < count; i++) {
            out.u64(ids[i]);
        }
        return out.toByteArray();
    }

    /**
     * {@return the ids in {@code body}}
     * @param body    the received body
     * @param message the message's name, for errors
     * @throws ProtocolException if the body is malformed, empty of ids, past the limit or names id 0
     */
    public static long[] decode(byte[] body, String message) {
        ByteReader in = new ByteReader(body, message);
        int count = in.count(Limits.MAX_IDS, "count");
        if (in.u32("reserved") != 0 || count == 0) {
            throw new ProtocolException(ErrorCode.PROTOCOL, message + " names no id or has a reserved field that is not 0");
        }
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            in.place("ids", i);
            ids[i] = in.u64("");
            if (ids[i] == 0) {
                throw new ProtocolException(ErrorCode.PROTOCOL, message + ": ids[" + i + "] is 0, which names nothing");
            }
        }
        in.end();
        return ids;
    }
}
