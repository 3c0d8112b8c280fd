package dev.quiver.flight.hostile;

import dev.quiver.flight.DeviceFlightClient;

import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Takes the warnings {@link DeviceFlightClient#close()} logs about memory its allocator still held (through
 * {@code System.Logger}, which is {@code java.util.logging} here) instead of printing them, so that the tests
 * that provoke them on purpose can look at them and the build log stays clean. One per test; close restores.
 */
final class ClientLeakLog implements AutoCloseable {
    private final Logger logger = Logger.getLogger(DeviceFlightClient.class.getName());
    private final boolean parentHandlers = logger.getUseParentHandlers();
    private final List<String> warnings = new ArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            if (record.getLevel().intValue() >= Level.WARNING.intValue()) {
                synchronized (warnings) {
                    warnings.add(record.getMessage());
                }
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    ClientLeakLog() {
        logger.addHandler(handler);
        logger.setUseParentHandlers(false);
    }

    /** @return the warnings logged so far */
    List<String> warnings() {
        synchronized (warnings) {
            return List.copyOf(warnings);
        }
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(parentHandlers);
    }
}
