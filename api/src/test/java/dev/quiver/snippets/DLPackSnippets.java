package dev.quiver.snippets;

import dev.quiver.ImportOptions;
import dev.quiver.DeviceArray;
import dev.quiver.dlpack.DLPack;
import dev.quiver.dlpack.DLPackExport;
import dev.quiver.dlpack.DLPackExportOptions;

import java.lang.foreign.MemorySegment;

/** The examples in the documentation of package {@code dev.quiver.dlpack}, compiled with the tests. */
final class DLPackSnippets {
    private DLPackSnippets() {}

    static DLPackExport exchange(DeviceArray array, Long consumerStream, MemorySegment managedTensorPointer) {
        // @start region="exchange"
        DLPackExport out = DLPack.exportVersioned(array, DLPackExportOptions.defaults().stream(consumerStream));
        // hand out.tensor() to the consumer, which calls its deleter

        try (DeviceArray in = DLPack.importVersioned(managedTensorPointer, ImportOptions.defaults())) {
            System.out.println(in.length() + " elements on " + in.deviceType());
        }
        // @end
        return out;
    }
}
