package dev.quiver.types;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.Diagnostics;
import dev.quiver.InvalidArrowException;
import dev.quiver.ProducerTrust;
import dev.quiver.abi.ArrowArrayLayout;
import dev.quiver.abi.ArrowDeviceArrayLayout;
import dev.quiver.abi.ArrowSchemaLayout;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Mutation fuzzing of import: random arrays of random nested types are exported, copied by the C producer
 * ({@code deep_copy.c}), and one thing is mutated: lengths, offsets, null counts, buffer and child counts
 * (set or one bit flipped), buffer pointers set to NULL, to other live buffers or moved within and beyond
 * their memory, child, dictionary and pointer-array pointers moved, buffer bytes changed, format strings
 * replaced or edited, flags. Each mutated struct is imported as from an untrusted producer and must be either
 * rejected with an {@link InvalidArrowException} naming a field path (on import, by full validation against
 * the process's readable mappings, or by full validation against the true buffer sizes), or imported, read
 * and copied without error. It runs in the test JVM, so a crash fails the build; C must see each array and
 * schema released exactly once.
 */
class ImportMutationFuzzingTest {
    private static final int MUTATIONS = 100_000;
    private static final long SEED = 20261122L;
    private static final String[] FORMATS = {"n", "b", "c", "C", "s", "i", "I", "l", "L", "e", "f", "g", "z", "Z", "u", "U", "vz", "vu",
        "d:5,2", "d:5,2,32", "w:4", "tdD", "tdm", "tts", "ttn", "tsu:UTC", "tDm", "tiM", "tiD", "tin", "+l", "+L", "+w:2", "+vl", "+vL",
        "+s", "+m", "+us:0,1", "+ud:0", "+r"};
    private static final String[] GARBAGE = {"", "Q", "+", "+w:-1", "w:abc", "d:99,2,32", "d:1", "+ud:1,1", "tsx:", "ts", "+us:300",
        "i\u00e9", "tt", "+w:", "d:,", "vv"};

    /** Each mutation is logged before import: if the JVM dies, the last line names the seed to replay. */
    private static final java.io.PrintStream TRACE = trace();

    private static java.io.PrintStream trace() {
        try {
            java.nio.file.Files.createDirectories(java.nio.file.Path.of("target"));
            return new java.io.PrintStream(new java.io.FileOutputStream("target/mutation-fuzzing-trace.txt"), true);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private record Node(MemorySegment struct, String path) {}

    @Test
    void everyMutationIsRejectedClearlyOrImportedCorrectly() {
        Random random = new Random(SEED);
        TreeMap<String, Integer> outcomes = new TreeMap<>();
        long arraysBefore = DeepCopyLibrary.arraysReleased();
        long schemasBefore = DeepCopyLibrary.schemasReleased();
        long failuresBefore = Diagnostics.callbackFailures();
        for (int i = 0; i < MUTATIONS; i++) {
            long seed = random.nextLong();
            try {
                outcomes.merge(mutateOnce(seed), 1, Integer::sum);
            } catch (AssertionError | RuntimeException e) {
                throw new AssertionError("mutation " + i + " with seed " + seed + ": " + e, e);
            }
            assertEquals(arraysBefore + i + 1, DeepCopyLibrary.arraysReleased(), "seed " + seed + ": the C array was released exactly once");
            assertEquals(schemasBefore + i + 1, DeepCopyLibrary.schemasReleased(), "seed " + seed + ": the C schema was released exactly once");
        }
        assertEquals(failuresBefore, Diagnostics.callbackFailures(), "no failure inside a release callback");
        System.out.println("mutation fuzzing: " + MUTATIONS + " mutations, seed " + SEED + ", outcomes " + outcomes);
        int rejected = outcomes.entrySet().stream().filter(e -> e.getKey().startsWith("rejected")).mapToInt(e -> e.getValue()).sum();
        assertTrue(rejected > MUTATIONS / 4, "most mutations break a rule: " + outcomes);
        assertTrue(outcomes.getOrDefault("imported", 0) > 0, "some mutations are harmless: " + outcomes);
    }

    /** One random array, one mutation; returns the outcome. */
    private static String mutateOnce(long seed) {
        RandomArrays generator = new RandomArrays(seed);
        HostVector vector = generator.vector(3, 12);
        Random random = generator.random();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment exported = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment schema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            Interchange.exportDevice(vector.toDeviceArray(EveryTypeThroughCTest.NONE), exported, schema);
            MemorySegment array = arena.allocate(ArrowDeviceArrayLayout.LAYOUT);
            MemorySegment copiedSchema = arena.allocate(ArrowSchemaLayout.LAYOUT);
            DeepCopyLibrary.copy(exported.asSlice(0, ArrowArrayLayout.LAYOUT.byteSize()), schema, array, copiedSchema);
            array.set(JAVA_LONG, ArrowDeviceArrayLayout.DEVICE_ID, -1);
            array.set(JAVA_INT, ArrowDeviceArrayLayout.DEVICE_TYPE, 1);
            String mutation = random.nextInt(4) == 0 ? mutateSchema(copiedSchema, random, arena) : mutateArray(array, random);
            TRACE.println(seed + " " + mutation);
            DeviceArray imported;
            try {
                imported = Interchange.importDevice(array, copiedSchema, ImportOptions.on(EveryTypeThroughCTest.NONE).trust(ProducerTrust.UNTRUSTED));
            } catch (InvalidArrowException e) {
                assertFalse(e.getMessage().isBlank(), mutation);
                return "rejected on import";
            }
            try (imported) {
                try {
                    Interchange.validateFull(imported);   // the sizes the structs imply, checked against the readable mappings
                } catch (InvalidArrowException e) {
                    assertFalse(e.getMessage().isBlank(), mutation);
                    return "rejected by full validation";
                }
                try {
                    // a pointer moved off the start of a C buffer addresses memory nobody gave this array (other
                    // code may change it between two reads): it owns no bytes there
                    Interchange.validateFull(imported, pointer -> Math.max(0, DeepCopyLibrary.capacity(pointer)));
                } catch (InvalidArrowException e) {
                    assertFalse(e.getMessage().isBlank(), mutation);
                    return "rejected by full validation against the true buffer sizes";
                }
                List<Object> values;
                try {
                    values = ArrayReader.of(imported).values();
                } catch (IllegalStateException e) {
                    assertTrue(e.getMessage().contains("boxing them all needs"), mutation + ": " + e);
                    return "valid, too long to box";
                }
                assertEquals(imported.length(), values.size(), mutation);
                List<Object> copied;
                try (DeviceArray copy = Copies.toHost(imported)) {
                    copied = ArrayReader.of(copy).values();
                }
                if (!copied.equals(values) && !ArrayReader.of(imported).values().equals(values)) {
                    // a pointer moved into readable memory that is not the producer's (heap memory others
                    // allocate and write): no check of the mappings can tell, and its bytes change under the reads
                    return "imported over memory that changed while it was read";
                }
                assertEquals(values, copied, mutation + ": a copy reads the same");
                return "imported";
            }
        }
    }

    private static String mutateArray(MemorySegment deviceArray, Random random) {
        List<Node> nodes = new ArrayList<>();
        collect(deviceArray.asSlice(0, ArrowArrayLayout.LAYOUT.byteSize()), "", nodes);
        List<MemorySegment> buffers = new ArrayList<>();
        for (Node node : nodes) {
            long n = node.struct.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
            MemorySegment pointers = node.struct.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(n * 8);
            for (int b = 0; b < n; b++) {
                if (!pointers.getAtIndex(ADDRESS, b).equals(MemorySegment.NULL)) {
                    buffers.add(pointers.getAtIndex(ADDRESS, b));
                }
            }
        }
        Node node = nodes.get(random.nextInt(nodes.size()));
        MemorySegment s = node.struct;
        long length = s.get(JAVA_LONG, ArrowArrayLayout.LENGTH);
        long nBuffers = s.get(JAVA_LONG, ArrowArrayLayout.N_BUFFERS);
        long nChildren = s.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        int kind = random.nextInt(30);
        switch (kind) {
            case 0 -> s.set(JAVA_LONG, ArrowArrayLayout.LENGTH, length + 1);
            case 1 -> s.set(JAVA_LONG, ArrowArrayLayout.LENGTH, length - 1);
            case 2 -> s.set(JAVA_LONG, ArrowArrayLayout.LENGTH, length * 2 + 1);
            case 3 -> s.set(JAVA_LONG, ArrowArrayLayout.LENGTH, -1 - random.nextInt(5));
            case 4 -> s.set(JAVA_LONG, ArrowArrayLayout.LENGTH, 1L << (20 + random.nextInt(43)));
            case 5 -> s.set(JAVA_LONG, ArrowArrayLayout.NULL_COUNT, s.get(JAVA_LONG, ArrowArrayLayout.NULL_COUNT) + 1);
            case 6 -> s.set(JAVA_LONG, ArrowArrayLayout.NULL_COUNT, -2 - random.nextInt(3));
            case 7 -> s.set(JAVA_LONG, ArrowArrayLayout.NULL_COUNT, random.nextInt(3) - 1);
            case 8 -> s.set(JAVA_LONG, ArrowArrayLayout.OFFSET, s.get(JAVA_LONG, ArrowArrayLayout.OFFSET) + 1 + random.nextInt(3));
            case 9 -> s.set(JAVA_LONG, ArrowArrayLayout.OFFSET, -1);
            case 10 -> s.set(JAVA_LONG, ArrowArrayLayout.OFFSET, 1L << (20 + random.nextInt(43)));
            case 11 -> s.set(JAVA_LONG, ArrowArrayLayout.N_BUFFERS, nBuffers + (random.nextBoolean() ? 1 : -1));
            case 12 -> s.set(JAVA_LONG, ArrowArrayLayout.N_CHILDREN, nChildren + (random.nextBoolean() ? 1 : -1));
            case 13, 14 -> {
                if (nBuffers == 0) {
                    return node.path + ": no buffers to mutate";
                }
                int b = random.nextInt((int) nBuffers);
                MemorySegment replacement = kind == 13 || buffers.isEmpty() ? MemorySegment.NULL : buffers.get(random.nextInt(buffers.size()));
                s.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(nBuffers * 8).setAtIndex(ADDRESS, b, replacement);
            }
            case 15 -> s.set(ADDRESS, ArrowArrayLayout.BUFFERS, MemorySegment.NULL);
            case 16, 17 -> {
                if (nChildren == 0) {
                    return node.path + ": no children to mutate";
                }
                int c = random.nextInt((int) nChildren);
                MemorySegment replacement = kind == 16 ? MemorySegment.NULL : nodes.get(random.nextInt(nodes.size())).struct;
                s.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(nChildren * 8).setAtIndex(ADDRESS, c, replacement);
            }
            case 18 -> s.set(ADDRESS, ArrowArrayLayout.DICTIONARY, random.nextBoolean() ? MemorySegment.NULL
                    : nodes.get(random.nextInt(nodes.size())).struct);
            case 19 -> {
                if (nChildren == 0) {
                    return node.path + ": no children to release";
                }
                MemorySegment child = s.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(nChildren * 8)
                        .getAtIndex(ADDRESS, random.nextInt((int) nChildren)).reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
                child.set(ADDRESS, ArrowArrayLayout.RELEASE, MemorySegment.NULL);
            }
            case 20, 21 -> {
                long[] fields = {ArrowArrayLayout.LENGTH, ArrowArrayLayout.NULL_COUNT, ArrowArrayLayout.OFFSET,
                    ArrowArrayLayout.N_BUFFERS, ArrowArrayLayout.N_CHILDREN};
                long field = fields[random.nextInt(fields.length)];
                s.set(JAVA_LONG, field, s.get(JAVA_LONG, field) ^ (1L << random.nextInt(64)));   // one bit flipped
            }
            case 22, 23 -> {
                if (nBuffers == 0) {
                    return node.path + ": no buffer pointer to move";
                }
                MemorySegment pointers = s.get(ADDRESS, ArrowArrayLayout.BUFFERS).reinterpret(nBuffers * 8);
                int b = random.nextInt((int) nBuffers);
                long moved = pointers.getAtIndex(ADDRESS, b).address() + move(random);
                pointers.setAtIndex(ADDRESS, b, MemorySegment.ofAddress(moved));
            }
            case 24 -> {
                long[] pointerFields = {ArrowArrayLayout.BUFFERS, ArrowArrayLayout.CHILDREN, ArrowArrayLayout.DICTIONARY};
                long field = pointerFields[random.nextInt(pointerFields.length)];
                MemorySegment pointer = s.get(ADDRESS, field);
                if (pointer.equals(MemorySegment.NULL)) {
                    return node.path + ": pointer field is NULL";
                }
                s.set(ADDRESS, field, MemorySegment.ofAddress(pointer.address() + move(random)));
            }
            case 25, 26, 27 -> {
                if (buffers.isEmpty()) {
                    return node.path + ": no buffer bytes to change";
                }
                MemorySegment buffer = buffers.get(random.nextInt(buffers.size()));
                long size = DeepCopyLibrary.capacity(buffer);
                if (size <= 0) {
                    return node.path + ": an empty buffer";
                }
                MemorySegment bytes = buffer.reinterpret(size);
                for (int n = 1 + random.nextInt(4); n > 0; n--) {
                    long at = random.nextLong(size);
                    bytes.set(JAVA_BYTE, at, (byte) (random.nextBoolean() ? random.nextInt(256) : bytes.get(JAVA_BYTE, at) ^ (1 << random.nextInt(8))));
                }
            }
            default -> s.set(JAVA_LONG, ArrowArrayLayout.LENGTH, random.nextInt(64));
        }
        return node.path + " array mutation " + kind;
    }

    /** @return a pointer move: small steps of either sign, aligned or not, or a jump of up to a few pages */
    private static long move(Random random) {
        return switch (random.nextInt(4)) {
            case 0 -> random.nextBoolean() ? 8 : -8;
            case 1 -> random.nextInt(-64, 65);
            case 2 -> random.nextInt(-4096, 4097);
            default -> random.nextLong(-(1L << 16), 1L << 16);
        };
    }

    private static String mutateSchema(MemorySegment schema, Random random, Arena arena) {
        List<Node> nodes = new ArrayList<>();
        collectSchemas(schema, "schema", nodes);
        Node node = nodes.get(random.nextInt(nodes.size()));
        MemorySegment s = node.struct;
        long nChildren = s.get(JAVA_LONG, ArrowSchemaLayout.N_CHILDREN);
        int kind = random.nextInt(10);
        switch (kind) {
            case 0, 1 -> s.set(ADDRESS, ArrowSchemaLayout.FORMAT, arena.allocateFrom(FORMATS[random.nextInt(FORMATS.length)]));
            case 8, 9 -> {
                MemorySegment format = s.get(ADDRESS, ArrowSchemaLayout.FORMAT);
                String text = format.equals(MemorySegment.NULL) ? "" : format.reinterpret(256).getString(0);
                StringBuilder edited = new StringBuilder(text);
                int at = edited.isEmpty() ? 0 : random.nextInt(edited.length() + 1);
                char c = "0123456789:,+-abdefgilmnpstuvwzCDILMSTUZ\u00ff".charAt(random.nextInt(41));
                switch (random.nextInt(3)) {
                    case 0 -> edited.insert(at, c);
                    case 1 -> {
                        if (at < edited.length()) {
                            edited.deleteCharAt(at);
                        }
                    }
                    default -> {
                        if (at < edited.length()) {
                            edited.setCharAt(at, c);
                        }
                    }
                }
                s.set(ADDRESS, ArrowSchemaLayout.FORMAT, arena.allocateFrom(edited.toString()));
            }
            case 2 -> s.set(ADDRESS, ArrowSchemaLayout.FORMAT, arena.allocateFrom(GARBAGE[random.nextInt(GARBAGE.length)]));
            case 3 -> s.set(ADDRESS, ArrowSchemaLayout.FORMAT, MemorySegment.NULL);
            case 4 -> s.set(JAVA_LONG, ArrowSchemaLayout.FLAGS, random.nextBoolean() ? random.nextInt(8) : 1L << random.nextInt(63));
            case 5 -> s.set(JAVA_LONG, ArrowSchemaLayout.N_CHILDREN, nChildren + (random.nextBoolean() ? 1 : -1));
            case 6 -> {
                if (nChildren == 0) {
                    s.set(ADDRESS, ArrowSchemaLayout.NAME, MemorySegment.NULL);
                } else {
                    s.get(ADDRESS, ArrowSchemaLayout.CHILDREN).reinterpret(nChildren * 8)
                            .setAtIndex(ADDRESS, random.nextInt((int) nChildren), MemorySegment.NULL);
                }
            }
            default -> s.set(ADDRESS, ArrowSchemaLayout.DICTIONARY, random.nextBoolean() ? MemorySegment.NULL
                    : nodes.get(random.nextInt(nodes.size())).struct);
        }
        return node.path + " schema mutation " + kind;
    }

    private static void collect(MemorySegment array, String path, List<Node> out) {
        MemorySegment s = array.reinterpret(ArrowArrayLayout.LAYOUT.byteSize());
        out.add(new Node(s, path));
        long n = s.get(JAVA_LONG, ArrowArrayLayout.N_CHILDREN);
        MemorySegment children = s.get(ADDRESS, ArrowArrayLayout.CHILDREN).reinterpret(n * 8);
        for (int i = 0; i < n; i++) {
            collect(children.getAtIndex(ADDRESS, i), path + "children[" + i + "].", out);
        }
        MemorySegment dictionary = s.get(ADDRESS, ArrowArrayLayout.DICTIONARY);
        if (!dictionary.equals(MemorySegment.NULL)) {
            collect(dictionary, path + "dictionary.", out);
        }
    }

    private static void collectSchemas(MemorySegment schema, String path, List<Node> out) {
        MemorySegment s = schema.reinterpret(ArrowSchemaLayout.LAYOUT.byteSize());
        out.add(new Node(s, path));
        long n = s.get(JAVA_LONG, ArrowSchemaLayout.N_CHILDREN);
        MemorySegment children = s.get(ADDRESS, ArrowSchemaLayout.CHILDREN).reinterpret(n * 8);
        for (int i = 0; i < n; i++) {
            collectSchemas(children.getAtIndex(ADDRESS, i), path + ".children[" + i + "]", out);
        }
        MemorySegment dictionary = s.get(ADDRESS, ArrowSchemaLayout.DICTIONARY);
        if (!dictionary.equals(MemorySegment.NULL)) {
            collectSchemas(dictionary, path + ".dictionary", out);
        }
    }
}
