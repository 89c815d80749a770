package io.kubepekko.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The JDK's {@code jcmd} against our server's JVM: the way to see its heap from outside without
 * adding an agent or a dependency. {@code GC.class_histogram} walks the heap after a full
 * collection, so its total is the live heap, exactly, in bytes.
 */
final class Jcmd {

    /** Live instances and their shallow bytes for one class. */
    record ClassUsage(String className, long instances, long bytes) {}

    /** A class histogram: per-class usage and the totals. */
    record ClassHistogram(Map<String, ClassUsage> classes, long instances, long bytes) {

        ClassUsage of(String className) {
            return classes.getOrDefault(className, new ClassUsage(className, 0, 0));
        }

        /** Per-class growth from {@code before} to this, largest first. */
        List<ClassUsage> growthSince(ClassHistogram before) {
            List<ClassUsage> growth = new ArrayList<>();
            for (ClassUsage now : classes.values()) {
                ClassUsage then = before.of(now.className());
                growth.add(
                        new ClassUsage(
                                now.className(),
                                now.instances() - then.instances(),
                                now.bytes() - then.bytes()));
            }
            growth.sort(Comparator.comparingLong(ClassUsage::bytes).reversed());
            return growth;
        }
    }

    // "   1:        123456       12345678  [B (java.base@17.0.15)"
    private static final Pattern ROW =
            Pattern.compile("^\\s*\\d+:\\s+(\\d+)\\s+(\\d+)\\s+(\\S+)", Pattern.MULTILINE);
    private static final Pattern TOTAL =
            Pattern.compile("^Total\\s+(\\d+)\\s+(\\d+)", Pattern.MULTILINE);
    private static final Pattern HEAP_USED =
            Pattern.compile("heap\\s+total\\s+\\d+K, used (\\d+)K");
    private static final long TIMEOUT_SECONDS = 120;

    private final long pid;

    Jcmd(long pid) {
        this.pid = pid;
    }

    /** Checks that {@code pid} is a JVM running {@code mainClass}, as {@code jcmd -l} lists it. */
    static void verify(long pid, String mainClass) throws IOException, InterruptedException {
        String listing = run(List.of("jcmd", "-l"));
        for (String line : listing.split("\n")) {
            if (line.startsWith(pid + " ") && line.contains(mainClass)) {
                return;
            }
        }
        throw new IOException(
                "jcmd -l does not list pid " + pid + " as " + mainClass + ":\n" + listing);
    }

    /** A full collection, so that what follows measures live objects only. */
    void gc() throws IOException, InterruptedException {
        run(List.of("jcmd", Long.toString(pid), "GC.run"));
    }

    /** Heap in use as {@code GC.heap_info} reports it, in bytes (KiB resolution). */
    long heapUsed() throws IOException, InterruptedException {
        String info = run(List.of("jcmd", Long.toString(pid), "GC.heap_info"));
        Matcher m = HEAP_USED.matcher(info);
        if (!m.find()) {
            throw new IOException("no heap usage in GC.heap_info output:\n" + info);
        }
        return Long.parseLong(m.group(1)) * 1024;
    }

    ClassHistogram histogram() throws IOException, InterruptedException {
        String text = run(List.of("jcmd", Long.toString(pid), "GC.class_histogram"));
        Map<String, ClassUsage> classes = new HashMap<>();
        Matcher row = ROW.matcher(text);
        while (row.find()) {
            String name = row.group(3);
            // The same name can be listed once per class loader; add them up.
            classes.merge(
                    name,
                    new ClassUsage(
                            name, Long.parseLong(row.group(1)), Long.parseLong(row.group(2))),
                    (a, b) ->
                            new ClassUsage(
                                    name, a.instances() + b.instances(), a.bytes() + b.bytes()));
        }
        Matcher total = TOTAL.matcher(text);
        if (!total.find()) {
            throw new IOException("no Total line in GC.class_histogram output");
        }
        return new ClassHistogram(
                classes, Long.parseLong(total.group(1)), Long.parseLong(total.group(2)));
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " did not finish");
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new IOException(
                    String.join(" ", command) + " failed (" + p.exitValue() + "): " + text);
        }
        return text;
    }
}
