package dev.quiver.flight;

import dev.quiver.DeviceArray;
import dev.quiver.arrowjava.DeviceCopy;
import dev.quiver.arrowjava.VectorImport;
import org.apache.arrow.c.CDataDictionaryProvider;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * One record batch in Arrow Java form, ready to be written to a Flight stream: a root and the dictionaries
 * its encoded fields refer to.
 *
 * <p><b>Ownership.</b> The batch owns both; {@link #close()} releases them, and with them the device array
 * the batch was made from. <b>Threading.</b> Made on one thread and handed to another through a queue; used
 * by one thread at a time.
 *
 * @param root         the batch's columns
 * @param dictionaries the dictionaries of its encoded fields (empty if none)
 */
record HostBatch(VectorSchemaRoot root, CDataDictionaryProvider dictionaries) implements AutoCloseable {

    /**
     * Moves a struct array into Arrow Java, copying it to the host first unless it is a writable CPU array.
     *
     * @param array     an open struct array on any device; consumed, also when this throws
     * @param allocator charged for the batch's buffers until it is closed
     * @return the batch, owned by the caller
     */
    static HostBatch of(DeviceArray array, BufferAllocator allocator) {
        CDataDictionaryProvider dictionaries = new CDataDictionaryProvider();
        try {
            return new HostBatch(VectorImport.toVectorSchemaRoot(array, allocator, dictionaries, DeviceCopy.COPY_TO_HOST), dictionaries);
        } catch (RuntimeException | Error e) {
            dictionaries.close();
            if (!array.isClosed()) {
                array.close();
            }
            throw e;
        }
    }

    @Override
    public void close() {
        try {
            root.close();
        } finally {
            dictionaries.close();
        }
    }
}
