package dev.quiver;

import dev.quiver.spi.BackendDevice;
import dev.quiver.spi.DeviceTypeCodes;
import dev.quiver.testkit.backend.TestDoubleProvider;
import org.junit.jupiter.api.Test;

import java.text.MessageFormat;
import java.util.List;
import java.util.ResourceBundle;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Discovery logs one line per provider at DEBUG through {@link System.Logger}: its status, the time its
 * probe took (not checked, only that one is given) and its reasons or device count.
 */
class ProbeLogTest {
    private static final Devices OWNER = Devices.cpuOnly();
    private static final BiFunction<String, BackendDevice, Device> WRAP = (name, backend) -> new Device(name, backend, OWNER);

    @Test
    void everyProviderGetsOneDebugLineWithItsResultAndTime() {
        Captured log = new Captured();
        BackendSelection selection = BackendSelection.parse("-gamma");
        ProviderProbe.of(new TestDoubleProvider("alpha", DeviceTypeCodes.EXT_DEV, 0), selection, WRAP, log).outcome();
        ProviderProbe.of(TestDoubleProvider.unavailable("beta", DeviceTypeCodes.ROCM, "no ROCm device"), selection, WRAP, log).outcome();
        ProviderProbe.of(new TestDoubleProvider("gamma", DeviceTypeCodes.VPI, 0), selection, WRAP, log).outcome();
        List<String> lines = log.debug;
        assertEquals(3, lines.size(), lines.toString());
        assertTrue(lines.get(0).matches("provider alpha: USABLE, probed in [0-9.]+ ms: 2 device\\(s\\)"), lines.get(0));
        assertTrue(lines.get(1).matches("provider beta: UNAVAILABLE, probed in [0-9.]+ ms: no ROCm device"), lines.get(1));
        assertTrue(lines.get(2).startsWith("provider gamma: EXCLUDED, not probed: "), lines.get(2));
    }

    @Test
    void nothingIsFormattedWhenDebugIsOff() {
        Captured log = new Captured();
        log.debugEnabled = false;
        ProviderProbe.of(new TestDoubleProvider("alpha", DeviceTypeCodes.EXT_DEV, 0), BackendSelection.all(), WRAP, log).outcome();
        assertEquals(List.of(), log.debug);
    }

    /** Keeps the DEBUG messages logged to it. Thread-safe. */
    private static final class Captured implements System.Logger {
        final List<String> debug = new CopyOnWriteArrayList<>();
        volatile boolean debugEnabled = true;

        @Override
        public String getName() {
            return "captured";
        }

        @Override
        public boolean isLoggable(Level level) {
            return level != Level.DEBUG || debugEnabled;
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String message, Throwable thrown) {
            if (level == Level.DEBUG) {
                debug.add(message);
            }
        }

        @Override
        public void log(Level level, ResourceBundle bundle, String format, Object... params) {
            log(level, bundle, params == null ? format : MessageFormat.format(format, params), (Throwable) null);
        }
    }
}
