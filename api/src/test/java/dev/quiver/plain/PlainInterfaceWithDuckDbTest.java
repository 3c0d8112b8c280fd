package dev.quiver.plain;

import dev.quiver.Copies;
import dev.quiver.Interchange;
import dev.quiver.ImportOptions;
import dev.quiver.BackendSelection;
import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.Devices;
import dev.quiver.Diagnostics;
import dev.quiver.ProducerTrust;
import dev.quiver.abi.ArrowArrayStreamLayout;
import dev.quiver.stream.DeviceArrayStream;
import dev.quiver.abi.PlainExport;
import dev.quiver.host.ArrayReader;
import dev.quiver.host.HostVector;
import dev.quiver.plugin.Backends;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testsupport.HostProvider;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The plain Arrow C Data interface both ways against DuckDB, an engine that speaks no C Device interface:
 * DuckDB's query results (plain ArrowArray + ArrowSchema chunks of many types) imported untrusted, validated in
 * full and read equal to DuckDB's own SQL aggregates; Quiver's batches exported as a plain ArrowArrayStream that
 * DuckDB scans with SQL, device arrays copied to the host or refused with a message. Every struct is released
 * once (Quiver's live exports counted).
 */
class PlainInterfaceWithDuckDbTest {
    private static final String TABLE = """
            CREATE TABLE t AS SELECT i::BIGINT AS id, (i % 7)::INTEGER AS small, (i / 4)::DOUBLE AS ratio,
                CASE WHEN i % 5 = 0 THEN NULL ELSE 'row ' || i END AS name, i % 2 = 0 AS even,
                [i, i + 1] AS pair, {'a': i, 'b': 'x' || i} AS rec, (i * 1.25)::DECIMAL(18, 2) AS price,
                CASE WHEN i % 3 = 0 THEN NULL ELSE (i % 11)::TINYINT END AS tiny
            FROM range(5000) r(i)""";

    @Test
    void duckDbResultsImportUntrustedValidateAndReadEqualToDuckDbsOwnAggregates() {
        long exports = Diagnostics.liveExports();
        try (DuckDb duck = new DuckDb()) {
            duck.execute(TABLE);
            long[] totals = new long[8];
            BigDecimal[] price = {BigDecimal.ZERO};
            int[] chunks = {0};
            duck.queryArrow("SELECT * FROM t ORDER BY id", parts -> {
                chunks[0]++;
                try (DeviceArray batch = Interchange.importPlain(parts[0], parts[1], ImportOptions.on(Devices.cpuOnly()).trust(ProducerTrust.UNTRUSTED))) {
                    assertEquals(DeviceType.CPU, batch.deviceType());
                    Interchange.validateFull(batch);
                    ArrayReader reader = ArrayReader.of(batch);
                    for (long row = 0; row < reader.length(); row++) {
                        @SuppressWarnings("unchecked")
                        Map<String, Object> r = (Map<String, Object>) reader.getObject(row);
                        totals[0] += ((Number) r.get("id")).longValue();
                        totals[1] += ((Number) r.get("small")).longValue();
                        if (r.get("name") != null) {
                            totals[2]++;
                            totals[3] += ((String) r.get("name")).length();
                        }
                        totals[4] += Boolean.TRUE.equals(r.get("even")) ? 1 : 0;
                        totals[5] += ((Number) ((List<?>) r.get("pair")).get(1)).longValue();
                        totals[6] += ((Number) ((Map<?, ?>) r.get("rec")).get("a")).longValue();
                        totals[7] += r.get("tiny") == null ? 0 : ((Number) r.get("tiny")).longValue();
                        price[0] = price[0].add((BigDecimal) r.get("price"));
                    }
                }
            });
            assertTrue(chunks[0] > 1, "DuckDB hands out several chunks: " + chunks[0]);
            List<Object> expected = new ArrayList<>();
            duck.queryArrow("""
                    SELECT sum(id)::BIGINT, sum(small)::BIGINT, count(name)::BIGINT, sum(length(name))::BIGINT,
                        count(*) FILTER (WHERE even)::BIGINT, sum(pair[2])::BIGINT, sum(rec.a)::BIGINT,
                        sum(tiny)::BIGINT, sum(price)::VARCHAR FROM t""", parts -> {
                try (DeviceArray row = Interchange.importPlain(parts[0], parts[1], ImportOptions.on(Devices.cpuOnly()).trust(ProducerTrust.UNTRUSTED))) {
                    expected.addAll(((Map<?, ?>) ArrayReader.of(row).getObject(0)).values());
                }
            });
            List<Object> actual = new ArrayList<>();
            for (long total : totals) {
                actual.add(total);
            }
            actual.add(price[0].toPlainString());
            assertEquals(expected, actual);
        }
        assertEquals(exports, Diagnostics.liveExports(), "every imported struct released once");
    }

    /** DuckDB types, each as an expression of i with nulls, named by the column they become. */
    private static final Map<String, String> MANY_TYPES = new java.util.LinkedHashMap<>();

    static {
        MANY_TYPES.put("c_tinyint", "(i % 100)::TINYINT");
        MANY_TYPES.put("c_smallint", "(i * 7)::SMALLINT");
        MANY_TYPES.put("c_integer", "(i * 31)::INTEGER");
        MANY_TYPES.put("c_bigint", "(i * 1000003)::BIGINT");
        MANY_TYPES.put("c_hugeint", "(i::HUGEINT * 10000000000000000000)");
        MANY_TYPES.put("c_utinyint", "(i % 200)::UTINYINT");
        MANY_TYPES.put("c_usmallint", "(i * 3)::USMALLINT");
        MANY_TYPES.put("c_uinteger", "(i * 5)::UINTEGER");
        MANY_TYPES.put("c_ubigint", "(i * 9)::UBIGINT");
        MANY_TYPES.put("c_float", "(i / 8)::FLOAT");
        MANY_TYPES.put("c_double", "(i / 3)::DOUBLE");
        MANY_TYPES.put("c_decimal4", "(i / 100)::DECIMAL(4, 2)");
        MANY_TYPES.put("c_decimal18", "(i * 1.5)::DECIMAL(18, 3)");
        MANY_TYPES.put("c_decimal38", "(i * 2.5)::DECIMAL(38, 10)");
        MANY_TYPES.put("c_boolean", "i % 3 = 0");
        MANY_TYPES.put("c_varchar", "'v' || i");
        MANY_TYPES.put("c_blob", "('b' || i)::BLOB");
        MANY_TYPES.put("c_date", "DATE '2000-01-01' + i::INTEGER");
        MANY_TYPES.put("c_time", "TIME '00:00:00' + INTERVAL (i) SECOND");
        MANY_TYPES.put("c_timestamp", "TIMESTAMP '2000-01-01' + INTERVAL (i) MINUTE");
        MANY_TYPES.put("c_timestamp_tz", "(TIMESTAMP '2000-01-01' + INTERVAL (i) HOUR)::TIMESTAMPTZ");
        MANY_TYPES.put("c_interval", "INTERVAL (i) DAY");
        MANY_TYPES.put("c_uuid", "uuid()");
        MANY_TYPES.put("c_enum", "('a' || (i % 3))::ENUM('a0', 'a1', 'a2')");
        MANY_TYPES.put("c_list", "[i, i + 1, NULL]");
        MANY_TYPES.put("c_list_varchar", "['x' || i, NULL]");
        MANY_TYPES.put("c_array", "[i, i * 2]::INTEGER[2]");
        MANY_TYPES.put("c_struct", "{'k': i, 'v': 'w' || i}");
        MANY_TYPES.put("c_map", "MAP {'m' || i: i}");
        // a NULL union arrives as a slot whose selected child is null (Arrow unions have no validity bitmap)
        MANY_TYPES.put("c_union", "CASE WHEN i % 2 = 0 THEN (i::INTEGER)::UNION(n INTEGER, s VARCHAR) "
                + "ELSE ('u' || i)::UNION(n INTEGER, s VARCHAR) END");
        MANY_TYPES.put("c_nested", "[{'a': [i], 'b': {'c': i}}]");
    }

    @Test
    void everyDuckDbTypeImportsValidatesAndHasDuckDbsNulls() {
        long exports = Diagnostics.liveExports();
        StringBuilder select = new StringBuilder("CREATE TABLE many AS SELECT ");
        StringBuilder counts = new StringBuilder("SELECT ");
        for (Map.Entry<String, String> column : MANY_TYPES.entrySet()) {
            select.append("CASE WHEN i % 4 = 1 THEN NULL ELSE ").append(column.getValue()).append(" END AS ").append(column.getKey()).append(", ");
            counts.append("count(").append(column.getKey()).append(")::BIGINT, ");
        }
        select.setLength(select.length() - 2);
        counts.setLength(counts.length() - 2);
        try (DuckDb duck = new DuckDb()) {
            duck.execute(select + " FROM range(3000) r(i)");
            long[] valid = new long[MANY_TYPES.size()];
            duck.queryArrow("SELECT * FROM many", parts -> {
                try (DeviceArray batch = Interchange.importPlain(parts[0], parts[1], ImportOptions.on(Devices.cpuOnly()).trust(ProducerTrust.UNTRUSTED))) {
                    Interchange.validateFull(batch);
                    for (int c = 0; c < valid.length; c++) {
                        try (DeviceArray column = batch.child(c)) {
                            ArrayReader reader = ArrayReader.of(column);
                            for (long row = 0; row < reader.length(); row++) {
                                if (!reader.isNull(row)) {
                                    valid[c]++;
                                    reader.getObject(row);
                                }
                            }
                        }
                    }
                }
            });
            List<Object> expected = new ArrayList<>();
            duck.queryArrow(counts + " FROM many", parts -> {
                try (DeviceArray row = Interchange.importPlain(parts[0], parts[1], ImportOptions.defaults())) {
                    expected.addAll(((Map<?, ?>) ArrayReader.of(row).getObject(0)).values());
                }
            });
            List<Object> actual = new ArrayList<>();
            for (long v : valid) {
                actual.add(v);
            }
            assertEquals(expected, actual, "non-null values per column, as DuckDB counts them: " + MANY_TYPES.keySet());
        }
        assertEquals(exports, Diagnostics.liveExports(), "every imported struct released once");
    }

    @Test
    void quiverBatchesExportAsAPlainStreamThatDuckDbScansWithSql() {
        long exports = Diagnostics.liveExports();
        List<DeviceArray> batches = new ArrayList<>();
        long expectedSum = 0;
        long expectedNames = 0;
        for (int b = 0; b < 5; b++) {
            Long[] ids = new Long[1000];
            String[] names = new String[1000];
            for (int i = 0; i < 1000; i++) {
                ids[i] = (long) (b * 1000 + i);
                names[i] = i % 4 == 0 ? null : "n" + i;
                expectedSum += ids[i];
                expectedNames += names[i] == null ? 0 : 1;
            }
            batches.add(HostVector.struct("batch", HostVector.int64("id", ids), HostVector.utf8("name", names))
                    .toDeviceArray(Devices.cpuOnly()));
        }
        Source source = new Source(batches);
        try (DuckDb duck = new DuckDb()) {
            MemorySegment stream = ArrowArrayStreamLayout.allocate(duck.arena());
            DeviceArrayStream.of(batches.getFirst().field(), DeviceType.CPU, source).exportPlain(stream, PlainExport.REFUSE);
            duck.scan("q", stream);
            List<Object> row = new ArrayList<>();
            duck.queryArrow("SELECT count(*)::BIGINT, sum(id)::BIGINT, count(name)::BIGINT FROM q", parts -> {
                try (DeviceArray result = Interchange.importPlain(parts[0], parts[1], ImportOptions.defaults())) {
                    row.addAll(((Map<?, ?>) ArrayReader.of(result).getObject(0)).values());
                }
            });
            assertEquals(List.of(5000L, expectedSum, expectedNames), row);
            DuckDb.releaseStream(stream);
            assertTrue(source.closed, "releasing the plain stream closes its source");
        }
        // DuckDB's C API takes the stream's schema from get_schema and never releases it (it sets the root's
        // release to NULL); those struct<id, name> schemas (3 nodes each) are all that is left of the export
        long left = Diagnostics.liveExports() - exports;
        assertTrue(left % 3 == 0 && left <= 30, left + " nodes left: only DuckDB's schemas may be");
    }

    /** An iterator of batches that says whether it was closed. */
    private static final class Source implements java.util.Iterator<DeviceArray>, AutoCloseable {
        private final java.util.Iterator<DeviceArray> batches;
        volatile boolean closed;

        Source(List<DeviceArray> batches) {
            this.batches = batches.iterator();
        }

        @Override
        public boolean hasNext() {
            return batches.hasNext();
        }

        @Override
        public DeviceArray next() {
            return batches.next();
        }

        @Override
        public void close() {
            closed = true;
        }
    }

    @Test
    void deviceArraysAreCopiedToTheHostOrRefusedByName() {
        TestDoubleProvider vendor = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
        Devices devices = Backends.devices(List.of(vendor, HostProvider.host()), BackendSelection.all());
        try (DuckDb duck = new DuckDb()) {
            List<DeviceArray> onDevice = new ArrayList<>();
            for (int b = 0; b < 3; b++) {
                try (DeviceArray host = HostVector.struct("batch", HostVector.int64("x", 1L, 2L, 3L)).toDeviceArray(devices)) {
                    onDevice.add(Copies.toDevice(host, devices.get(DeviceType.EXT_DEV, 0)));
                }
            }
            MemorySegment copied = ArrowArrayStreamLayout.allocate(duck.arena());
            DeviceArrayStream.of(onDevice.getFirst().field(), onDevice.getFirst().deviceType(), onDevice.iterator()).exportPlain(copied, PlainExport.COPY_TO_HOST);
            duck.scan("copied", copied);
            List<Object> row = new ArrayList<>();
            duck.queryArrow("SELECT sum(x)::BIGINT FROM copied", parts -> {
                try (DeviceArray result = Interchange.importPlain(parts[0], parts[1], ImportOptions.defaults())) {
                    row.addAll(((Map<?, ?>) ArrayReader.of(result).getObject(0)).values());
                }
            });
            assertEquals(List.of(18L), row);
            DuckDb.releaseStream(copied);
            assertEquals(0, devices.get(DeviceType.EXT_DEV, 0).memoryPool().stats().bytesInUse(), "the device arrays were closed once copied");

            List<DeviceArray> refused = new ArrayList<>();
            try (DeviceArray host = HostVector.struct("batch", HostVector.int64("x", 1L)).toDeviceArray(devices)) {
                refused.add(Copies.toDevice(host, devices.get(DeviceType.EXT_DEV, 0)));
            }
            MemorySegment stream = ArrowArrayStreamLayout.allocate(duck.arena());
            DeviceArrayStream.of(refused.getFirst().field(), refused.getFirst().deviceType(), refused.iterator()).exportPlain(stream, PlainExport.REFUSE);
            duck.scan("refused", stream);
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> duck.queryArrow("SELECT sum(x) FROM refused", parts -> { }));
            assertTrue(e.getMessage().contains("carries CPU memory only"), e.getMessage());
            DuckDb.releaseStream(stream);
            assertEquals(0, devices.get(DeviceType.EXT_DEV, 0).memoryPool().stats().bytesInUse(), "the refused array was closed");
        }
    }

    @Test
    void plainExportOfOneArrayAndItsMisuse() {
        TestDoubleProvider vendor = new TestDoubleProvider("ext", DeviceTypeCodes.EXT_DEV, 0);
        Devices devices = Backends.devices(List.of(vendor, HostProvider.host()), BackendSelection.all());
        long exports = Diagnostics.liveExports();
        try (java.lang.foreign.Arena arena = java.lang.foreign.Arena.ofConfined();
             DeviceArray host = HostVector.int64("x", 4L, null, 6L).toDeviceArray(devices);
             DeviceArray onDevice = Copies.toDevice(host, devices.get(DeviceType.EXT_DEV, 0))) {
            MemorySegment array = arena.allocate(dev.quiver.abi.ArrowArrayLayout.LAYOUT);
            MemorySegment schema = dev.quiver.abi.ArrowSchemaLayout.allocate(arena);
            IllegalArgumentException refused = assertThrows(IllegalArgumentException.class,
                    () -> Interchange.exportPlain(onDevice, array, schema, PlainExport.REFUSE));
            assertTrue(refused.getMessage().contains("EXT_DEV:0 memory; the plain C Data interface carries CPU memory only"),
                    refused.getMessage());
            Interchange.exportPlain(onDevice, array, schema, PlainExport.COPY_TO_HOST);
            try (DeviceArray back = Interchange.importPlain(array, schema, ImportOptions.on(devices).trust(ProducerTrust.UNTRUSTED))) {
                assertEquals(Arrays.asList(4L, null, 6L), ArrayReader.of(back).values());
            }
            Interchange.exportPlain(host, array, schema, PlainExport.REFUSE);   // a CPU array needs no copy
            try (DeviceArray back = Interchange.importPlain(array, schema, ImportOptions.defaults())) {
                assertEquals(Arrays.asList(4L, null, 6L), ArrayReader.of(back).values());
            }
            assertThrows(dev.quiver.InvalidArrowException.class, () -> Interchange.importPlain(array, schema, ImportOptions.defaults()),
                    "a released struct is refused");
            assertThrows(NullPointerException.class, () -> Interchange.exportPlain(host, array, schema, null));
        }
        assertEquals(exports, Diagnostics.liveExports());
    }
}
