package dev.quiver.share;

import dev.quiver.DeviceArray;
import dev.quiver.host.HostVector;
import dev.quiver.share.internal.arrays.CopiedLayout;
import dev.quiver.share.internal.arrays.HostNode;
import dev.quiver.share.internal.arrays.HostNodes;
import dev.quiver.share.internal.protocol.BatchMessage;
import dev.quiver.share.internal.protocol.ByteWriter;
import dev.quiver.share.internal.protocol.HandleKind;
import dev.quiver.share.internal.protocol.SchemaCodec;
import dev.quiver.type.ArrowType;
import dev.quiver.type.BufferLayout;
import dev.quiver.type.Field;
import dev.quiver.types.TypeCatalogue;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * The template file of {@code mutating_owner.c}: per stream, the SCHEMA body and, per batch the owner sends
 * again and again, the BATCH body as Quiver's owner encodes it (one MEMFD handle that introduces its region;
 * the owner patches in a fresh batch id and region id), the memory file's contents (the buffers laid out as a
 * copied batch lays them) and the byte ranges of that memory that hold structural values, per kind (the
 * numbers of {@code mutating_owner.h}).
 *
 * <p>The streams are every sample of the API's type catalogue and the test table of {@link Batches}, each a
 * one-column table (a struct named {@code stream-I-NAME}, I the stream's index), twice: stream {@code 2k} for a
 * receiver that validates contents, {@code 2k + 1} for one that does not. Each has two batches: the whole
 * table and the table without its first row (a slice, whose offset the nodes keep). Stateless.
 */
final class MutationTemplates {
    private MutationTemplates() {}

    /** Range kinds of {@code mutating_owner.h}. */
    static final int VALIDITY = 1, OFFSETS = 2, SIZES = 3, VIEWS = 4, VARIADIC_SIZES = 5, TYPE_IDS = 6,
            UNION_OFFSETS = 7, RUN_ENDS = 8, DICTIONARY_INDICES = 9;

    /**
     * One stream as the receiver checks it.
     *
     * @param name         the name of its table, which the receiver finds in the schema
     * @param validated    whether its receiver validates contents
     * @param descriptions what each of its batches reads as, unchanged ({@link Batches#describe})
     */
    record Stream(String name, boolean validated, Set<String> descriptions) {}

    /** {@return the stream's index in a table's name of a schema of this file} @param name {@code stream-I-NAME} */
    static int index(String name) {
        return Integer.parseInt(name.split("-", 3)[1]);
    }

    /**
     * Writes the template file.
     *
     * @param file where
     * @return the streams, in the file's order
     */
    static List<Stream> write(Path file) throws IOException {
        List<HostVector> columns = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (TypeCatalogue.Sample sample : TypeCatalogue.all()) {
            columns.add(sample.vector());
            names.add(sample.name());
        }
        columns.add(Batches.table(3, 200));
        names.add("table");
        List<Stream> streams = new ArrayList<>();
        ByteWriter out = new ByteWriter().bytes("QVMUTTP1".getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .u32(2 * columns.size());
        for (int c = 0; c < columns.size(); c++) {
            for (boolean validated : new boolean[] {true, false}) {
                String name = "stream-" + streams.size() + "-" + names.get(c);
                streams.add(stream(HostVector.struct(name, columns.get(c)), validated, out));
            }
        }
        Files.write(file, out.toByteArray());
        return streams;
    }

    private static Stream stream(HostVector table, boolean validated, ByteWriter out) {
        try (DeviceArray whole = table.toDeviceArray()) {
            byte[] schema = SchemaCodec.encode(whole.field());
            out.u32(schema.length).bytes(schema);
            List<DeviceArray> batches = whole.length() > 1 ? List.of(whole, whole.slice(1, whole.length() - 1)) : List.of(whole);
            out.u32(batches.size());
            Set<String> descriptions = new java.util.HashSet<>();
            for (DeviceArray batch : batches) {
                descriptions.add(Batches.describe(batch));
                template(batch, out);
                if (batch != whole) {
                    batch.close();
                }
            }
            return new Stream(whole.field().name(), validated, descriptions);
        }
    }

    /** Writes one batch: its BATCH body, its memory, its structural ranges. */
    private static void template(DeviceArray array, ByteWriter out) {
        List<HostNode> nodes = HostNodes.of(array);
        long bytes = CopiedLayout.bytesNeeded(nodes);
        boolean memory = nodes.stream().anyMatch(n -> java.util.Arrays.stream(n.addresses()).anyMatch(a -> a != 0));
        byte[] contents = new byte[memory ? (int) Math.max(64, bytes) : 0];
        List<BatchMessage.Node> placed = CopiedLayout.copy(nodes, MemorySegment.ofArray(contents), 0, 0);
        List<BatchMessage.Handle> handles = memory
                ? List.of(new BatchMessage.Handle(HandleKind.MEMFD, contents.length, 1, true, new byte[0])) : List.of();
        byte[] body = new BatchMessage(1, false, handles, 0, new byte[0], placed).encode();
        out.u32(body.length).bytes(body).u64(contents.length).bytes(contents);
        List<long[]> ranges = new ArrayList<>();
        walk(array.field(), false, nodes, placed, new int[1], ranges);
        out.u32(ranges.size());
        for (long[] range : ranges) {
            out.u32((int) range[0]).u32((int) range[1]).u64(range[2]).u64(range[3]);
        }
    }

    /** Adds the structural ranges of the node at {@code at[0]} and of its subtree, pre-order as the nodes lie. */
    private static void walk(Field field, boolean runEnds, List<HostNode> nodes, List<BatchMessage.Node> placed, int[] at,
                             List<long[]> ranges) {
        HostNode node = nodes.get(at[0]);
        List<BatchMessage.Buffer> buffers = placed.get(at[0]++).buffers();
        List<BufferLayout.Buffer> fixed = BufferLayout.of(field.type()).buffers();
        for (int i = 0; i < buffers.size(); i++) {
            BatchMessage.Buffer buffer = buffers.get(i);
            if (buffer.handle() == BatchMessage.NO_HANDLE || buffer.length() == 0) {
                continue;
            }
            int[] kind = i < fixed.size() ? kind(fixed.get(i), field, runEnds)
                    : i == buffers.size() - 1 ? new int[] {VARIADIC_SIZES, 8} : null;   // else a variadic data buffer
            if (kind != null) {
                ranges.add(new long[] {kind[0], kind[1], buffer.offset(), buffer.length()});
            }
        }
        for (int k = 0; k < node.childCount(); k++) {
            walk(field.children().get(k), k == 0 && field.type() instanceof ArrowType.RunEndEncoded, nodes, placed, at, ranges);
        }
        if (node.hasDictionary()) {
            walk(field.dictionary().values(), false, nodes, placed, at, ranges);
        }
    }

    /** {@return the range kind and entry width of a buffer, or null for plain values} */
    private static int[] kind(BufferLayout.Buffer buffer, Field field, boolean runEnds) {
        int width = buffer.bitWidth() / 8;
        return switch (buffer.kind()) {
            case VALIDITY -> new int[] {VALIDITY, 0};
            case OFFSETS -> new int[] {OFFSETS, width};
            case SIZES -> new int[] {SIZES, width};
            case VIEWS -> new int[] {VIEWS, 16};
            case TYPE_IDS -> new int[] {TYPE_IDS, 1};
            case UNION_OFFSETS -> new int[] {UNION_OFFSETS, 4};
            case FIXED -> field.dictionary() != null ? new int[] {DICTIONARY_INDICES, width} : runEnds ? new int[] {RUN_ENDS, width} : null;
            case BITS, DATA -> null;
        };
    }
}
