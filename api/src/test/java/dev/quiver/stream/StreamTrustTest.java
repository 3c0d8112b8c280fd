package dev.quiver.stream;

import dev.quiver.DeviceArray;
import dev.quiver.DeviceType;
import dev.quiver.ImportOptions;
import dev.quiver.ProducerTrust;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;

import static dev.quiver.stream.PullProducers.ARRAYS_RELEASED;
import static dev.quiver.stream.PullProducers.stat;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * The producer trust of an imported C stream is settled when the stream is imported, from its options or else
 * the environment ({@value ProducerTrust#PROPERTY}), and holds for every array it hands out.
 */
class StreamTrustTest {
    private final PullProducers producers = new PullProducers();

    @AfterEach
    void free() {
        System.clearProperty(ProducerTrust.PROPERTY);
        producers.close();
    }

    @Test
    void theEnvironmentIsReadOnceWhenTheStreamIsImported() {
        MemorySegment producer = producers.producer(3, DeviceType.CPU.code(), -1, -1, -1, 0, 0, false);
        try (DeviceArrayStream stream = DeviceArrayStream.importFrom(producers.export(producer), ImportOptions.on(Batches.NO_BACKENDS))) {
            // a value no import accepts: an import that read the environment now would throw
            System.setProperty(ProducerTrust.PROPERTY, "neither");
            assertThrows(IllegalArgumentException.class, ProducerTrust::fromEnvironment);
            long batches = 0;
            while (stream.hasNext()) {
                try (DeviceArray array = stream.next()) {
                    assertEquals(Batches.values(batches), Batches.read(array));
                }
                batches++;
            }
            assertEquals(3, batches);
        }
        assertEquals(3, stat(producer, ARRAYS_RELEASED));
    }

    @Test
    void anUntrustedStreamRefusesAnInvalidArrayAndReleasesItOnce() {
        MemorySegment producer = producers.producer(4, DeviceType.CPU.code(), -1, 2, -1, 0, 0, false);
        try (DeviceArrayStream stream = DeviceArrayStream.importFrom(producers.export(producer),
                ImportOptions.on(Batches.NO_BACKENDS).trust(ProducerTrust.UNTRUSTED))) {
            stream.next().close();
            stream.next().close();
            assertThrows(dev.quiver.InvalidArrowException.class, stream::next);
        }
        assertEquals(3, stat(producer, ARRAYS_RELEASED), "the invalid array was released once, by the import");
    }
}
