package dev.quiver.share.internal.protocol;

import java.util.ArrayList;
import java.util.List;

/**
 * The body of BATCH (docs/SHARING.md, "BATCH"): one array as the handles of the regions of memory it lies in
 * (each named by a region id; a handle that introduces its region carries the descriptor), an optional event,
 * and its nodes in pre-order (a node, its children in order, then its dictionary's nodes), each with
 * length, null count, offset and, per buffer, a handle index, an offset into the handle's memory and a
 * length. Decoding checks counts against {@link Limits} and handle indexes against the handles; offsets and
 * lengths are checked by the importer against the memory each handle maps.
 *
 * @param batchId      the id RELEASED names, unique in the connection, not 0
 * @param copied       whether the owner copied the array for this handoff (a fallback) rather than sharing
 *                     the memory the array lives in
 * @param handles      the handles, in the order their descriptors travel
 * @param eventKind    0: no event (the data is ready); other codes are reserved for device events
 * @param eventPayload the event's bytes, empty without an event
 * @param nodes        the nodes, pre-order
 */
public record BatchMessage(long batchId, boolean copied, List<Handle> handles, int eventKind, byte[] eventPayload,
                           List<Node> nodes) {
    /** The handle index of a buffer that is NULL. */
    public static final int NO_HANDLE = -1;

    /** Copies the lists. */
    public BatchMessage {
        handles = List.copyOf(handles);
        nodes = List.copyOf(nodes);
        eventPayload = eventPayload.clone();
    }

    @Override
    public byte[] eventPayload() {
        return eventPayload.clone();
    }

    /** The flag of a handle whose region is used for the first time: its descriptor travels with the batch. */
    public static final int FLAG_NEW = 1;

    /**
     * One region of shareable memory.
     *
     * @param kind       how it travels
     * @param size       its size in bytes, as the owner knows it; the receiver checks it against what it maps
     * @param regionId   the region's id in the connection, not 0
     * @param introduces whether this is the region's first use (its descriptor travels with this batch)
     * @param payload    the kind's bytes (empty for the kinds whose descriptor travels instead)
     */
    public record Handle(HandleKind kind, long size, long regionId, boolean introduces, byte[] payload) {
        /** Copies the payload. */
        public Handle {
            payload = payload.clone();
        }

        @Override
        public byte[] payload() {
            return payload.clone();
        }

        /** {@return whether a descriptor travels for this handle} */
        public boolean carriesDescriptor() {
            return introduces && kind.carriesDescriptor();
        }
    }

    /**
     * Where one buffer lies.
     *
     * @param handle an index into the batch's handles, or {@link #NO_HANDLE} for a NULL buffer
     * @param offset bytes from the start of the handle's memory
     * @param length bytes the buffer may be read for
     */
    public record Buffer(int handle, long offset, long length) {}

    /**
     * One node of the array tree, as its {@code ArrowArray} has it.
     *
     * @param length        {@code length}
     * @param nullCount     {@code null_count}
     * @param offset        {@code offset}
     * @param buffers       its buffers
     * @param childCount    {@code n_children}: how many of the following nodes' subtrees are its children
     * @param hasDictionary whether a dictionary subtree follows the children
     */
    public record Node(long length, long nullCount, long offset, List<Buffer> buffers, int childCount, boolean hasDictionary) {
        /** Copies the buffers. */
        public Node {
            buffers = List.copyOf(buffers);
        }
    }

    /** {@return how many descriptors travel with this batch} */
    public int descriptorCount() {
        int count = 0;
        for (Handle handle : handles) {
            count += handle.carriesDescriptor() ? 1 : 0;
        }
        return count;
    }

    /** {@return the body} */
    public byte[] encode() {
        ByteWriter out = new ByteWriter().u64(batchId).u32(copied ? 1 : 0).u32(handles.size());
        for (Handle handle : handles) {
            out.u32(handle.kind().wire()).u32(handle.payload.length).u64(handle.size()).u64(handle.regionId())
                    .u32(handle.introduces() ? FLAG_NEW : 0).u32(0).bytes(padded(handle.payload));
        }
        out.u32(eventKind).u32(eventPayload.length).bytes(padded(eventPayload));
        out.u32(nodes.size()).u32(0);
        for (Node node : nodes) {
            out.u64(node.length()).u64(node.nullCount()).u64(node.offset())
                    .u32(node.buffers().size()).u32(node.childCount()).u32(node.hasDictionary() ? 1 : 0).u32(0);
            for (Buffer buffer : node.buffers()) {
                out.u32(buffer.handle()).u32(0).u64(buffer.offset()).u64(buffer.length());
            }
        }
        return out.toByteArray();
    }

    /**
     * {@return the BATCH in {@code body}}
     * @param body the received body
     * @throws ProtocolException naming the field if the body is malformed or past the limits, or a reserved field
     *                           is not 0
     */
    public static BatchMessage decode(byte[] body) {
        ByteReader in = new ByteReader(body, "BATCH");
        long batchId = in.u64("batch_id");
        String name = "BATCH " + Long.toUnsignedString(batchId);
        in.rename(name);
        int delivery = in.u32("delivery");
        if (delivery != 0 && delivery != 1) {
            throw new ProtocolException(ErrorCode.PROTOCOL, name + ": delivery is " + delivery + ", not 0 (shared) or 1 (copied)");
        }
        int handleCount = in.count(Limits.MAX_HANDLES, "handle_count");
        List<Handle> handles = new ArrayList<>(handleCount);
        for (int i = 0; i < handleCount; i++) {
            in.place("handles", i);
            HandleKind kind = HandleKind.of(in.u32("kind"));
            int payloadLength = in.count(Limits.MAX_PAYLOAD, "payload_length");
            long size = in.u64("size");
            long regionId = in.u64("region_id");
            int flags = in.u32("flags");
            in.reserved("reserved");
            if (regionId == 0 || (flags & ~FLAG_NEW) != 0) {
                throw new ProtocolException(ErrorCode.PROTOCOL, name + ": handles[" + i + "] has region_id " + Long.toUnsignedString(regionId)
                        + " and flags 0x" + Integer.toHexString(flags) + "; a region id is not 0 and the only flag is NEW (1)");
            }
            byte[] payload = in.bytes(payloadLength, "payload");
            in.bytes(padding(payloadLength), "padding");
            handles.add(new Handle(kind, size, regionId, (flags & FLAG_NEW) != 0, payload));
        }
        in.noPlace();
        int eventKind = in.u32("event_kind");
        int eventLength = in.count(Limits.MAX_PAYLOAD, "event_payload_length");
        byte[] eventPayload = in.bytes(eventLength, "event_payload");
        in.bytes(padding(eventLength), "event padding");
        int nodeCount = in.count(Limits.MAX_NODES, "node_count");
        in.reserved("reserved");
        List<Node> nodes = new ArrayList<>(Math.min(nodeCount, 1024));
        for (int n = 0; n < nodeCount; n++) {
            in.place("nodes", n);
            long length = in.u64("length");
            long nullCount = in.u64("null_count");
            long offset = in.u64("offset");
            int bufferCount = in.count(Limits.MAX_BUFFERS, "n_buffers");
            int childCount = in.count(Limits.MAX_NODES, "n_children");
            int hasDictionary = in.u32("has_dictionary");
            in.reserved("reserved");
            if (hasDictionary != 0 && hasDictionary != 1) {
                throw new ProtocolException(ErrorCode.PROTOCOL, name + ": " + in.name("has_dictionary") + " is " + hasDictionary);
            }
            List<Buffer> buffers = new ArrayList<>(Math.min(bufferCount, 16));
            for (int b = 0; b < bufferCount; b++) {
                in.placeInner("buffers", b);
                int handle = in.u32("handle");
                in.reserved("reserved");
                if (handle != NO_HANDLE && (handle < 0 || handle >= handleCount)) {
                    throw new ProtocolException(ErrorCode.PROTOCOL, name + ": " + in.name("") + " names handle "
                            + Integer.toUnsignedString(handle) + "; the batch has " + handleCount);
                }
                buffers.add(new Buffer(handle, in.u64("offset"), in.u64("length")));
            }
            nodes.add(new Node(length, nullCount, offset, buffers, childCount, hasDictionary == 1));
        }
        in.noPlace();
        in.end();
        return new BatchMessage(batchId, delivery == 1, handles, eventKind, eventPayload, nodes);
    }

    private static int padding(int length) {
        return (8 - (length & 7)) & 7;
    }

    private static byte[] padded(byte[] bytes) {
        byte[] out = new byte[bytes.length + padding(bytes.length)];
        System.arraycopy(bytes, 0, out, 0, bytes.length);
        return out;
    }
}
