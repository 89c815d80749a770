package io.kubepekko.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.channels.Channels;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Follows the log file {@link ServerProcess} appends the server's lines to, for lines of a given
 * shape. A line's time is the server's own ({@code HH:mm:ss.SSS} at its start, logback's pattern)
 * on the day the line was read: a run that crosses midnight may misplace a line by a day.
 */
final class ServerLogTail {

    /** A line that matched: its time and its match. */
    record Line(LocalDateTime at, Matcher match) {}

    private static final Pattern TIME = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d\\d\\d) ");

    private final Path file;
    private final List<String> seen = new ArrayList<>();
    private long offset;

    ServerLogTail(Path file) {
        this.file = file;
    }

    /**
     * The first line so far (or from now until {@code timeout}) matching {@code pattern} and {@code
     * accept}.
     */
    Line await(Pattern pattern, Predicate<Matcher> accept, Duration timeout)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        int next = 0;
        while (true) {
            readNew();
            for (; next < seen.size(); next++) {
                Optional<Line> line = match(seen.get(next), pattern, accept);
                if (line.isPresent()) {
                    return line.get();
                }
            }
            if (System.nanoTime() > deadline) {
                throw new IOException("the server did not log /" + pattern + "/ in time");
            }
            Thread.sleep(100);
        }
    }

    /** Whether a line matching {@code pattern} and {@code accept} was logged by now. */
    Optional<Line> find(Pattern pattern, Predicate<Matcher> accept) throws IOException {
        readNew();
        for (String s : seen) {
            Optional<Line> line = match(s, pattern, accept);
            if (line.isPresent()) {
                return line;
            }
        }
        return Optional.empty();
    }

    private static Optional<Line> match(String line, Pattern pattern, Predicate<Matcher> accept) {
        Matcher m = pattern.matcher(line);
        Matcher t = TIME.matcher(line);
        if (m.find() && accept.test(m) && t.find()) {
            return Optional.of(
                    new Line(LocalDateTime.of(LocalDate.now(), LocalTime.parse(t.group(1))), m));
        }
        return Optional.empty();
    }

    private void readNew() throws IOException {
        if (!Files.exists(file)) {
            return;
        }
        try (var channel = Files.newByteChannel(file)) {
            channel.position(offset);
            BufferedReader reader =
                    new BufferedReader(
                            new InputStreamReader(
                                    Channels.newInputStream(channel), StandardCharsets.UTF_8));
            StringBuilder text = new StringBuilder();
            char[] buffer = new char[8192];
            for (int n = reader.read(buffer); n > 0; n = reader.read(buffer)) {
                text.append(buffer, 0, n);
            }
            int end = text.lastIndexOf("\n") + 1;
            if (end == 0) {
                return;
            }
            String complete = text.substring(0, end);
            offset += complete.getBytes(StandardCharsets.UTF_8).length;
            for (String line : complete.split("\n")) {
                seen.add(line);
            }
        }
    }
}
