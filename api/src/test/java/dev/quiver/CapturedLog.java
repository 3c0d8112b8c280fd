package dev.quiver;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * While open, keeps what one logger logs (through {@code System.Logger}, which java.util.logging serves here)
 * for the test to check, instead of printing it to the build's console.
 */
final class CapturedLog implements AutoCloseable {
    private final Logger logger;   // held strongly: java.util.logging keeps its loggers weakly
    private final boolean parentHandlers;
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord record) {
            records.add(record);
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    private CapturedLog(String name) {
        logger = Logger.getLogger(name);
        parentHandlers = logger.getUseParentHandlers();
        logger.addHandler(handler);
        logger.setUseParentHandlers(false);
    }

    /** @return a capture of the logger called {@code name}, open until {@link #close()} */
    static CapturedLog of(String name) {
        return new CapturedLog(name);
    }

    /** @return the messages logged so far, in order */
    List<String> messages() {
        return records.stream().map(LogRecord::getMessage).toList();
    }

    @Override
    public void close() {
        logger.removeHandler(handler);
        logger.setUseParentHandlers(parentHandlers);
    }
}
