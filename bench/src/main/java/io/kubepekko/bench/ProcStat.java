package io.kubepekko.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A process's CPU time and resident memory as Linux reports them in {@code /proc/<pid>/stat} and
 * {@code /proc/<pid>/status}: the same figures {@code top} shows, read without any tool.
 */
final class ProcStat {

    /**
     * Clock ticks per second of {@code utime}/{@code stime}: USER_HZ, 100 on every Linux
     * architecture we run on.
     */
    private static final long TICKS_PER_SECOND = 100;

    private ProcStat() {}

    /** User plus system CPU time the process has used so far, in nanoseconds. */
    static long cpuNanos(long pid) throws IOException {
        String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
        // The command name (field 2) is in parentheses and may hold spaces: count fields after its
        // last ')'.
        String[] fields = stat.substring(stat.lastIndexOf(')') + 2).trim().split("\\s+");
        long utime = Long.parseLong(fields[11]); // field 14 of the whole line
        long stime = Long.parseLong(fields[12]); // field 15
        return (utime + stime) * (1_000_000_000L / TICKS_PER_SECOND);
    }

    /** Resident set size in bytes ({@code VmRSS}). */
    static long rssBytes(long pid) throws IOException {
        for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
            if (line.startsWith("VmRSS:")) {
                return Long.parseLong(line.replaceAll("[^0-9]", "")) * 1024;
            }
        }
        throw new IOException("no VmRSS for pid " + pid);
    }
}
