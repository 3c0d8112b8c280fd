package dev.quiver.flight.wire;

import dev.quiver.ArrayBuilder;
import dev.quiver.Device;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceBuffer;
import dev.quiver.Devices;
import dev.quiver.flight.FlightCompression;
import dev.quiver.type.ArrowType;
import dev.quiver.type.Field;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

/**
 * Where body compression pays on the Flight wire: for a batch of about 8 MiB of one int64 column (values
 * uniform in 0..65535, as counts and small ids are) and one of one utf8 column (words drawn from 4096 random
 * ones), each codec's ratio, its compression throughput (encoding the batch's messages, compressed against as
 * they are) and its decompression throughput (decoding them, less the decoding of the plain message, which
 * validates the same arrays), in MB/s of uncompressed body; and from those, the link rate below which a batch
 * sent compressed arrives sooner than sent plainly (one batch at a time, compress, send and decompress one after
 * the other: {@code (1 - 1/ratio) / (1/compress + 1/decompress)}), and the time of one batch over a 10 Gbit/s
 * link both ways. Medians of the measured runs, after the warm-up runs; arguments: warm-up runs, measured runs
 * (defaults 3, 9). Prints a Markdown table.
 */
public final class CompressionThroughput {
    private static final int BYTES = 8 << 20;
    private static final double TEN_GBIT = 10e9 / 8;

    private CompressionThroughput() {}

    /**
     * @param args warm-up runs, measured runs
     * @throws IOException if a message cannot be drained
     */
    public static void main(String[] args) throws IOException {
        int warmUp = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 9;
        Device cpu = Devices.system().cpu();
        System.out.printf(Locale.ROOT, "%d cores, %s %s%n%n", Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.vm.name"), System.getProperty("java.version"));
        System.out.println("| batch | codec | ratio | compress MB/s | decompress MB/s | pays below | 10 Gbit/s: plain / compressed ms |");
        System.out.println("|---|---|---|---|---|---|---|");
        for (String kind : List.of("int64", "utf8")) {
            try (DeviceArray batch = kind.equals("int64") ? int64(cpu) : utf8(cpu)) {
                double[] plain = measure(batch, FlightCompression.NONE, cpu, warmUp, runs);
                for (FlightCompression compression : List.of(FlightCompression.LZ4_FRAME, FlightCompression.ZSTD)) {
                    double[] measured = measure(batch, compression, cpu, warmUp, runs);
                    double size = plain[2];
                    double ratio = size / measured[2];
                    double compress = size / measured[0];
                    double decompress = size / Math.max(1e-9, measured[1] - plain[1]);
                    double breakEven = (1 - 1 / ratio) / (1 / compress + 1 / decompress);
                    double plainMs = size / TEN_GBIT * 1e3;
                    double compressedMs = (size / compress + size / ratio / TEN_GBIT + size / decompress) * 1e3;
                    System.out.printf(Locale.ROOT, "| %s, %.1f MiB | %s | %.2f | %.0f | %.0f | %s | %.1f / %.1f |%n", kind, size / (1 << 20),
                            compression, ratio, compress / 1e6, decompress / 1e6,
                            breakEven <= 0 ? "never" : String.format(Locale.ROOT, "%.2f Gbit/s", breakEven * 8 / 1e9), plainMs, compressedMs);
                }
            }
        }
    }

    /** {@return the median seconds to encode and to decode, and the body's bytes on the wire} */
    private static double[] measure(DeviceArray batch, FlightCompression compression, Device cpu, int warmUp, int runs) throws IOException {
        double[] encode = new double[runs];
        double[] decode = new double[runs];
        long body = 0;
        try (FlightDataDecoder decoder = new FlightDataDecoder(cpu, "throughput")) {
            decoder.accept(WireBatches.read(WireBatches.bytes(FlightDataEncoder.schema(batch.field(), null))));
            for (int run = -warmUp; run < runs; run++) {
                long start = System.nanoTime();
                OutgoingMessage message = FlightDataEncoder.batch(batch, false, null, compression).getFirst();
                long encoded = System.nanoTime();
                body = message.bodyLength();
                ReceivedMessage received = WireBatches.read(WireBatches.bytes(message));
                long read = System.nanoTime();
                try (DeviceArray out = decoder.accept(received)) {
                    long decoded = System.nanoTime();
                    if (run >= 0) {
                        encode[run] = (encoded - start) / 1e9;
                        decode[run] = (decoded - read) / 1e9;
                    }
                    if (out.length() != batch.length()) {
                        throw new IllegalStateException("decoded " + out.length() + " rows of " + batch.length());
                    }
                }
            }
        }
        return new double[] {median(encode), median(decode), body};
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        return sorted[sorted.length / 2];
    }

    private static DeviceArray int64(Device cpu) {
        int rows = BYTES / 8;
        DeviceBuffer values = cpu.allocate(BYTES, 64);
        Random random = new Random(1);
        MemorySegment segment = values.asSegment();
        for (int i = 0; i < rows; i++) {
            segment.setAtIndex(JAVA_LONG, i, random.nextInt(65_536));
        }
        Field field = Field.of("int64", new ArrowType.Int(64, true), false);
        return struct(cpu, rows, ArrayBuilder.of(field, cpu).length(rows).nullCount(0).absentBuffer().buffer(values).build());
    }

    private static DeviceArray utf8(Device cpu) {
        Random random = new Random(2);
        List<byte[]> words = new ArrayList<>();
        for (int w = 0; w < 4096; w++) {
            char[] word = new char[3 + random.nextInt(10)];
            for (int c = 0; c < word.length; c++) {
                word[c] = (char) ('a' + random.nextInt(26));
            }
            words.add(new String(word).getBytes(StandardCharsets.UTF_8));
        }
        List<byte[]> rows = new ArrayList<>();
        long bytes = 0;
        while (bytes + 4 + 16 < BYTES) {
            byte[] word = words.get(random.nextInt(words.size()));
            rows.add(word);
            bytes += word.length + 4;
        }
        long dataBytes = bytes - 4L * rows.size();
        DeviceBuffer offsets = cpu.allocate(4L * (rows.size() + 1), 64);
        DeviceBuffer data = cpu.allocate(Math.max(1, dataBytes), 64);
        int at = 0;
        for (int i = 0; i < rows.size(); i++) {
            offsets.asSegment().setAtIndex(JAVA_INT, i, at);
            MemorySegment.copy(rows.get(i), 0, data.asSegment(), JAVA_BYTE, at, rows.get(i).length);
            at += rows.get(i).length;
        }
        offsets.asSegment().setAtIndex(JAVA_INT, rows.size(), at);
        Field field = Field.of("utf8", new ArrowType.Utf8(), false);
        return struct(cpu, rows.size(), ArrayBuilder.of(field, cpu).length(rows.size()).nullCount(0).absentBuffer()
                .buffer(offsets).buffer(data).build());
    }

    private static DeviceArray struct(Device cpu, long rows, DeviceArray column) {
        return ArrayBuilder.of(Field.struct("", false, List.of(column.field())), cpu).length(rows).nullCount(0).absentBuffer()
                .child(column).build();
    }
}
