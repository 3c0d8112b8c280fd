package dev.quiver.benchmarks;

import dev.quiver.DeviceArray;
import dev.quiver.arrowjava.VectorExport;
import dev.quiver.Devices;
import org.apache.arrow.memory.ArrowBuf;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.util.ValueVectorUtility;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;

/**
 * What checking a received batch costs, on the shape of a query engine's batches (int64 with about 10% nulls
 * beside short strings, as DuckDB's int64 + varchar; the strings ASCII as TPC-H's, or a third of them with
 * multi-byte characters): a batch Arrow Java holds, as Flight and the IPC readers hand it over.
 * <ul>
 *   <li>{@link #exportOnly}: export to a Quiver CPU array and close, no check: what a batch cost before the
 *       checks;</li>
 *   <li>{@link #exportAndValidate}: {@link VectorExport#toValidatedDeviceArray}, what Flight and the IPC
 *       readers now do per batch: the export, every implied size checked against the buffers held, offsets,
 *       null counts and UTF-8;</li>
 *   <li>{@link #arrowJavaValidateFull}: Arrow Java's own full validation of the same vectors
 *       ({@code ValueVectorUtility.validateFull}), the same checks in the reference Java implementation;</li>
 *   <li>{@link #readEveryByte}: the floor: every byte of the batch's buffers read once, a long at a time.</li>
 * </ul>
 * Times are per batch; {@code bytes} (printed at setup) is the batch's buffer bytes, for GB/s. Ten warm-up
 * iterations: the million-row cases take several seconds to reach the JIT's final code.
 */
@Warmup(iterations = 10, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--enable-native-access=ALL-UNNAMED", "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "-Dio.netty.noUnsafe=false", "--sun-misc-unsafe-memory-access=allow"})
public class FullValidation extends BenchmarkState {
    /** TPC-H's kind of strings, as DuckDB's varchar columns hold them: ASCII. */
    private static final String[] ASCII = {"Customer#", "Supplier#", "Clerk#", "furiously regular deposits ", "FURNITURE", "BUILDING",
        "MACHINERY", "carefully final packages "};
    /** Text in several scripts: a third of the values hold two- or three-byte characters. */
    private static final String[] MIXED = {"Customer#", "Supplier#", "Clerk#", "naïve", "façade", "東京", "ok", "FURNITURE", "BUILDING"};

    /** Rows per batch: DuckDB's vector size, and a million. */
    @Param({"2048", "1048576"})
    public int rows;

    /** The strings: {@code ascii} (TPC-H's kind) or {@code mixed} (several scripts). */
    @Param({"ascii", "mixed"})
    public String text;

    private BufferAllocator allocator;
    private VectorSchemaRoot root;
    private Devices devices;

    /** Builds the batch once. */
    @Override
    protected void setUp() {
        allocator = new RootAllocator();
        devices = Devices.system();
        BigIntVector numbers = new BigIntVector("n", allocator);
        VarCharVector names = new VarCharVector("s", allocator);
        numbers.allocateNew(rows);
        names.allocateNew((long) rows * 16, rows);
        SplittableRandom random = new SplittableRandom(7);
        String[] words = text.equals("ascii") ? ASCII : MIXED;
        for (int i = 0; i < rows; i++) {
            if (random.nextInt(10) == 0) {
                numbers.setNull(i);
            } else {
                numbers.set(i, random.nextLong());
            }
            String name = words[random.nextInt(words.length)] + random.nextInt(1_000_000);
            names.setSafe(i, name.getBytes(StandardCharsets.UTF_8));
        }
        numbers.setValueCount(rows);
        names.setValueCount(rows);
        root = new VectorSchemaRoot(List.<FieldVector>of(numbers, names));
        root.setRowCount(rows);
        long bytes = root.getFieldVectors().stream().mapToLong(FieldVector::getBufferSize).sum();
        System.out.println("FullValidation rows=" + rows + " text=" + text + " bytes=" + bytes);
    }

    /** Releases the batch. */
    @Override
    protected void tearDown() {
        root.close();
        allocator.close();
    }

    /** @return the rows exported */
    @Benchmark
    public long exportOnly() {
        try (DeviceArray batch = VectorExport.toDeviceArray(root, null, allocator, devices)) {
            return batch.length();
        }
    }

    /** @return the rows exported and validated */
    @Benchmark
    public long exportAndValidate() {
        try (DeviceArray batch = VectorExport.toValidatedDeviceArray(root, null, allocator, devices)) {
            return batch.length();
        }
    }

    /** @return the vectors validated */
    @Benchmark
    public int arrowJavaValidateFull() {
        for (FieldVector vector : root.getFieldVectors()) {
            ValueVectorUtility.validateFull(vector);
        }
        return root.getFieldVectors().size();
    }

    /** @return a sum of every long of the batch's buffers */
    @Benchmark
    public long readEveryByte() {
        long sum = 0;
        for (FieldVector vector : root.getFieldVectors()) {
            for (ArrowBuf buffer : vector.getFieldBuffers()) {
                long words = buffer.writerIndex() / 8;
                for (long w = 0; w < words; w++) {
                    sum += buffer.getLong(w * 8);
                }
            }
        }
        return sum;
    }
}
