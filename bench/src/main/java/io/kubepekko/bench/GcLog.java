package io.kubepekko.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The pauses of a HotSpot GC log written with {@code -Xlog:gc:file=<path>:time}: each with its
 * time, its kind ({@code Pause Young}, {@code Pause Full}, ...) and the heap in use before and
 * after it. Heap figures are what the log prints (whole MiB).
 */
final class GcLog {

    /** One pause: when it ended, what it was, and the heap it found and left (bytes). */
    record Pause(LocalDateTime at, String kind, String causes, long before, long after) {
        boolean full() {
            return kind.equals("Pause Full");
        }

        /** A full collection asked for from outside (jcmd, System.gc()), not forced by the heap. */
        boolean induced() {
            return causes.contains("Heap Inspection") || causes.contains("System.gc()");
        }

        /**
         * Whether the pause collected (a young, mixed or full one): what it left in use is what was
         * still reachable then, plus old regions not yet collected. G1's Remark and Cleanup pauses
         * print the heap too, but collect nothing but empty regions.
         */
        boolean collecting() {
            return kind.equals("Pause Young") || full();
        }
    }

    // [2026-12-01T03:30:00.123+0000] GC(12) Pause Young (Normal) (G1 Evacuation Pause)
    // 512M->300M(1024M) 12.345ms
    private static final Pattern PAUSE =
            Pattern.compile(
                    "^\\[([^\\]]+)\\].*?GC\\(\\d+\\) (Pause \\w+)(.*?) (\\d+)([KMG])->(\\d+)([KMG])\\(\\d+[KMG]\\)");

    private static final DateTimeFormatter TIME =
            DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss.SSSZ");

    private GcLog() {}

    static List<Pause> read(Path file) throws IOException {
        return parse(Files.readAllLines(file));
    }

    /** The pauses among {@code lines}, in the local time of this machine. */
    static List<Pause> parse(List<String> lines) {
        List<Pause> pauses = new ArrayList<>();
        for (String line : lines) {
            Matcher m = PAUSE.matcher(line);
            if (!m.find()) {
                continue;
            }
            LocalDateTime at =
                    OffsetDateTime.parse(m.group(1), TIME)
                            .atZoneSameInstant(ZoneId.systemDefault())
                            .toLocalDateTime();
            pauses.add(
                    new Pause(
                            at,
                            m.group(2),
                            m.group(3).trim(),
                            bytes(m.group(4), m.group(5)),
                            bytes(m.group(6), m.group(7))));
        }
        return pauses;
    }

    /** The pauses that ended from {@code from} to {@code to}. */
    static List<Pause> between(List<Pause> pauses, LocalDateTime from, LocalDateTime to) {
        List<Pause> in = new ArrayList<>();
        for (Pause p : pauses) {
            if (!p.at().isBefore(from) && !p.at().isAfter(to)) {
                in.add(p);
            }
        }
        return in;
    }

    private static long bytes(String number, String unit) {
        long n = Long.parseLong(number);
        return switch (unit) {
            case "K" -> n << 10;
            case "M" -> n << 20;
            default -> n << 30;
        };
    }
}
