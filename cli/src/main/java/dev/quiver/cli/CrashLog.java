package dev.quiver.cli;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a HotSpot fatal error log ({@code hs_err_pid*.log}) says about a crash: the signal, and the frame
 * that received it. Immutable.
 *
 * @param signal the signal line, for example {@code SIGSEGV (0xb) at pc=0x00007f3c1a2b1139}
 * @param frame  the problematic frame, for example {@code C  [libproducer.so+0x1139]  crash_producer+0x10}, or
 *               empty when the log names none
 */
record CrashLog(String signal, String frame) {
    private static final Pattern SIGNAL = Pattern.compile("^#\\s+(SIG[A-Z0-9]+ \\(0x[0-9a-f]+\\) at pc=0x[0-9a-f]+)");

    /**
     * @param directory where the JVM was told to write its log
     * @return the first log found there that names a signal
     */
    static Optional<CrashLog> find(Path directory) {
        try (var files = Files.list(directory)) {
            for (Path file : files.filter(f -> f.getFileName().toString().startsWith("hs_err")).sorted().toList()) {
                Optional<CrashLog> log = parse(Files.readAllLines(file, StandardCharsets.ISO_8859_1));
                if (log.isPresent()) {
                    return log;
                }
            }
        } catch (IOException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }

    /**
     * @param lines the lines of a fatal error log
     * @return its signal and problematic frame, if it names a signal
     */
    static Optional<CrashLog> parse(List<String> lines) {
        for (int i = 0; i < lines.size(); i++) {
            Matcher signal = SIGNAL.matcher(lines.get(i));
            if (signal.find()) {
                String frame = "";
                for (int j = i + 1; j < lines.size() - 1; j++) {
                    if (lines.get(j).startsWith("# Problematic frame:")) {
                        frame = lines.get(j + 1).replaceFirst("^#\\s*", "").strip();
                        break;
                    }
                }
                return Optional.of(new CrashLog(signal.group(1), frame));
            }
        }
        return Optional.empty();
    }

    /** @return the signal's name, for example {@code SIGSEGV} */
    String signalName() {
        return signal.substring(0, signal.indexOf(' '));
    }
}
