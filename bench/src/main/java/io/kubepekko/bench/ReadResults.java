package io.kubepekko.bench;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Everything {@link ReadBench} measured, collected for {@link ReadReport}. */
final class ReadResults {

    /** One list figure: a store, a collection size, a way of listing. */
    record ListKey(String store, int size, ReadStore.ListMode mode) {}

    /** The timings of one list figure and what each traversal read. */
    record ListStats(Samples timings, long bytes, int pages) {}

    /** The heap of our server before and after {@code objects} more pods, each after a full GC. */
    record Heap(
            int objects,
            long storedBytes,
            Jcmd.ClassHistogram before,
            Jcmd.ClassHistogram after,
            long usedBefore,
            long usedAfter) {

        long histogramGrowth() {
            return after.bytes() - before.bytes();
        }

        /**
         * Bytes of one byte[] per object holding its stored JSON: 16-byte header, 8-byte aligned.
         */
        long jsonArrays() {
            // Lengths are not kept one by one; the alignment adds 3.5 bytes per array on average.
            return storedBytes + objects * 20L;
        }
    }

    /**
     * A start's timing: from the process's start and from its JVM's start (NaN-like 0 when the exec
     * was not seen) until /readyz answered 200, and whether the launch script built first.
     */
    record Start(long processNanos, long jvmNanos, boolean rebuilt) {
        /** The server's own start: from the JVM's start when known. */
        double seconds() {
            return (jvmNanos > 0 ? jvmNanos : processNanos) / 1e9;
        }
    }

    /** The warm start: a first start on an empty data dir, seeding, a stop and a timed restart. */
    record WarmStart(
            int objects,
            Start cold,
            Seeder.Outcome seeded,
            long stopNanos,
            int exitCode,
            Start warm,
            long firstListNanos,
            long listedItems) {}

    final Map<ListKey, ListStats> lists = new LinkedHashMap<>();
    final Map<String, Map<Integer, WatchFanout.Outcome>> watches = new LinkedHashMap<>();
    final List<Seeder.Outcome> seeds = new ArrayList<>();
    final List<String> problems = new ArrayList<>();
    Heap heap;
    WarmStart warmStart;
    VersionListsPhase.Outcome versions;
    String etcdVersion = "not run";

    ListStats list(String store, int size, ReadStore.ListMode mode) {
        return lists.get(new ListKey(store, size, mode));
    }

    WatchFanout.Outcome watch(String store, int watchers) {
        return watches.getOrDefault(store, Map.of()).get(watchers);
    }

    void add(WatchFanout.Outcome outcome) {
        watches.computeIfAbsent(outcome.store(), s -> new LinkedHashMap<>())
                .put(outcome.watchers(), outcome);
        for (String problem : outcome.problems()) {
            problems.add(
                    outcome.store() + " watch (" + outcome.watchers() + " watchers): " + problem);
        }
    }

    void add(Seeder.Outcome seeded) {
        seeds.add(seeded);
        if (!seeded.failures().isEmpty()) {
            problems.add(
                    seeded.store()
                            + " creates: "
                            + seeded.failed()
                            + " failed attempts "
                            + seeded.failures()
                            + (seeded.samples().isEmpty() ? "" : ", e.g. " + seeded.samples()));
        }
    }

    /** Average stored JSON size of the pods a store was given, over every seeding. */
    double averageStoredBytes(String store) {
        long bytes = 0;
        long objects = 0;
        for (Seeder.Outcome s : seeds) {
            if (s.store().equals(store)) {
                bytes += s.storedBytes();
                objects += s.created();
            }
        }
        return objects == 0 ? Double.NaN : (double) bytes / objects;
    }
}
