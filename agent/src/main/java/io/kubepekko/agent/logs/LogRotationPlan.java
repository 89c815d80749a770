package io.kubepekko.agent.logs;

import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

/**
 * What to do with one container's log file, as the kubelet's {@code
 * containerLogManager.processContainer} and {@code rotateLog} decide it, from the file's size and
 * the names in its directory. Rotated files are named {@code <log>.<yyyyMMdd-HHmmss>}; all but the
 * newest rotated file are gzipped ({@code .gz}); a {@code .tmp} file is a compression a crash
 * interrupted.
 */
public final class LogRotationPlan {
    private LogRotationPlan() {}

    /**
     * kube's {@code timestampFormat} {@code 20060102-150405}, in the node's local time as the
     * kubelet's clock.
     */
    static final DateTimeFormatter TIMESTAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss");

    static final String COMPRESSED = ".gz";
    static final String TEMPORARY = ".tmp";

    /** The decision for one log file. */
    public sealed interface Action {}

    /** Below the size limit: nothing to do. */
    public record Keep() implements Action {}

    /**
     * The live file is missing (removed by hand, or a rename whose reopen failed): the runtime
     * reopens it.
     */
    public record Reopen() implements Action {}

    /**
     * Rotate, in this order: {@code remove} (leftovers, then the oldest rotated files beyond the
     * limit), {@code compress} each to {@code <name>.gz} (oldest first), rename the live file to
     * {@code rotatedName}, then ask the runtime to reopen its log. Names are of files in the log's
     * directory.
     */
    public record Rotate(List<String> remove, List<String> compress, String rotatedName)
            implements Action {
        public Rotate {
            remove = List.copyOf(remove);
            compress = List.copyOf(compress);
        }
    }

    /**
     * @param logName the live log file's name ({@code 0.log})
     * @param size its size in bytes; empty when it does not exist
     * @param siblings the names of the files in its directory (others than its own are ignored)
     * @param now the node's local time, for the rotated file's name
     */
    public static Action plan(
            String logName,
            OptionalLong size,
            Collection<String> siblings,
            LogRotationPolicy policy,
            LocalDateTime now) {
        if (size.isEmpty()) {
            return new Reopen();
        }
        // kube rotates from the limit on (size < max keeps); a file at exactly the limit is
        // rotated.
        if (size.getAsLong() < policy.maxSizeBytes()) {
            return new Keep();
        }
        String prefix = logName + ".";
        List<String> rotated =
                siblings.stream().filter(n -> n.startsWith(prefix)).sorted().toList();
        Set<String> names = new HashSet<>(rotated);
        List<String> remove = new ArrayList<>();
        List<String> inUse = new ArrayList<>();
        for (String name : rotated) {
            boolean unused =
                    name.endsWith(TEMPORARY)
                            || (!name.endsWith(COMPRESSED) && names.contains(name + COMPRESSED));
            (unused ? remove : inUse).add(name);
        }
        // The live file and the one about to be rotated leave room for maxFiles - 2 older ones; the
        // oldest go first
        // (timestamps sort by name), so a reader following the newer ones is not cut off.
        int keep = Math.max(0, policy.maxFiles() - 2);
        int excess = Math.max(0, inUse.size() - keep);
        remove.addAll(inUse.subList(0, excess));
        List<String> kept = inUse.subList(excess, inUse.size());
        List<String> compress = kept.stream().filter(n -> !n.endsWith(COMPRESSED)).toList();
        return new Rotate(remove, compress, prefix + TIMESTAMP.format(now));
    }
}
