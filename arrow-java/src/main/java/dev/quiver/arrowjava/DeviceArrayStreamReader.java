package dev.quiver.arrowjava;

import dev.quiver.DeviceArray;
import dev.quiver.stream.DeviceArrayStream;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.dictionary.Dictionary;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.pojo.Schema;

import java.io.IOException;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * An {@link ArrowReader} over a Quiver {@link DeviceArrayStream} of struct arrays: each
 * {@link #loadNextBatch()} imports the next array into the reader's root, zero-copy for CPU arrays (see
 * {@link VectorImport}). Dictionaries live in a {@link CDataDictionaryProvider} owned by the reader.
 * Made by {@link StreamImport}; like every ArrowReader, one thread at a time.
 */
final class DeviceArrayStreamReader extends ArrowReader {
    private final DeviceArrayStream stream;
    private final DeviceCopy policy;
    private final CDataDictionaryProvider provider = new CDataDictionaryProvider();

    DeviceArrayStreamReader(DeviceArrayStream stream, BufferAllocator allocator, DeviceCopy policy) {
        super(allocator);
        this.stream = stream;
        this.policy = policy;
    }

    @Override
    public Map<Long, Dictionary> getDictionaryVectors() {
        return provider.getDictionaryIds().stream().collect(Collectors.toMap(Function.identity(), provider::lookup));
    }

    @Override
    public Dictionary lookup(long id) {
        return provider.lookup(id);
    }

    @Override
    public boolean loadNextBatch() throws IOException {
        ensureInitialized();
        DeviceArray batch;
        try {
            if (!stream.hasNext()) {
                return false;
            }
            batch = stream.next();
        } catch (RuntimeException e) {
            throw new IOException("the DeviceArrayStream failed: " + e.getMessage(), e);
        }
        try {
            VectorImport.intoVectorSchemaRoot(batch, getVectorSchemaRoot(), allocator, provider, policy);
            return true;
        } catch (RuntimeException e) {
            batch.close();
            throw new IOException("batch refused: " + e.getMessage(), e);
        }
    }

    @Override
    public long bytesRead() {
        return 0;
    }

    @Override
    protected void closeReadSource() {
        try {
            stream.close();
        } finally {
            provider.close();
        }
    }

    @Override
    protected Schema readSchema() {
        return ArrowJavaSchemas.arrowJavaSchema(stream.schema(), allocator, provider);
    }
}
