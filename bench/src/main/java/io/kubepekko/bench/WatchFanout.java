package io.kubepekko.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Create-to-event latency with N watchers of one collection: opens the watches, then creates
 * objects one after another, each only once every watcher has seen the previous one, and times from
 * just before the create is sent until each watcher has read the object's ADDED event. For each
 * write it keeps the latency of the last watcher to see it and the median across watchers; with one
 * watcher both are that watcher's latency.
 */
final class WatchFanout {

    /** The figures of one run. */
    record Outcome(
            String store,
            int watchers,
            int writes,
            Samples last,
            Samples median,
            Samples answered,
            int missed,
            int failedWrites,
            List<String> problems) {
        String summary() {
            return String.format(
                    Locale.ROOT,
                    "%s: %d watcher(s), %d writes: last watcher p50 %.2f ms p99 %.2f ms, median watcher"
                            + " p50 %.2f ms, create answered p50 %.2f ms%s%s",
                    store,
                    watchers,
                    writes,
                    last.p50(),
                    last.p99(),
                    median.p50(),
                    answered.p50(),
                    missed > 0 ? ", " + missed + " writes not seen by every watcher in time" : "",
                    failedWrites > 0 ? ", " + failedWrites + " failed writes" : "");
        }
    }

    private static final long WRITE_TIMEOUT_SECONDS = 15;
    private static final int PROBLEMS_KEPT = 5;

    private WatchFanout() {}

    /**
     * @param warmups unmeasured writes first: they prove every watcher live and warm both ends up
     * @param payload the ConfigMap bodies' shape (only its data is used; names are made here)
     */
    static Outcome run(
            ReadStore store,
            String namespace,
            int watchers,
            int warmups,
            int writes,
            Workload payload,
            long openTimeoutSeconds)
            throws IOException, InterruptedException {
        int total = warmups + writes;
        String prefix = "w" + watchers + "-";
        long[][] arrivals = new long[watchers][total];
        CountDownLatch[] seen = new CountDownLatch[total];
        for (int i = 0; i < total; i++) {
            seen[i] = new CountDownLatch(watchers);
        }
        CountDownLatch ready = new CountDownLatch(watchers);
        List<WatchStream> streams = new ArrayList<>(watchers);
        Samples last = new Samples();
        Samples median = new Samples();
        // The create's own response time: what of the event latency is the write, what is delivery.
        Samples answered = new Samples();
        int missed = 0;
        int failedWrites = 0;
        try (HttpConn conn = store.newConnection()) {
            if (!store.ensureNamespace(conn, namespace)) {
                throw new IOException(store.name() + ": could not create namespace " + namespace);
            }
            ReadStore.WatchRequest request = store.watchConfigMaps(conn, namespace);
            WatchStream.Listener listener =
                    (stream, line, nanos) -> {
                        ReadStore.WatchLine parsed = store.parseWatchLine(line);
                        if (parsed.error() != null) {
                            stream.problem(parsed.error());
                        }
                        if (parsed.confirmation()) {
                            ready.countDown();
                        }
                        long[] mine = arrivals[stream.index()];
                        for (String name : parsed.added()) {
                            int seq = sequence(name, prefix);
                            if (seq >= 0 && seq < total && mine[seq] == 0) {
                                mine[seq] = nanos;
                                seen[seq].countDown();
                            }
                        }
                    };
            for (int w = 0; w < watchers; w++) {
                streams.add(
                        new WatchStream(
                                w,
                                store,
                                request,
                                listener,
                                store.confirmsWatch() ? () -> {} : ready::countDown));
            }
            streams.forEach(WatchStream::start);
            if (!ready.await(openTimeoutSeconds, TimeUnit.SECONDS)) {
                throw new IOException(
                        store.name()
                                + ": only "
                                + (watchers - ready.getCount())
                                + " of "
                                + watchers
                                + " watches opened in "
                                + openTimeoutSeconds
                                + " s; "
                                + problems(streams));
            }
            System.err.printf(
                    Locale.ROOT,
                    "%s: %d watch(es) open on %s%n",
                    store.name(),
                    watchers,
                    namespace);
            for (int i = 0; i < total; i++) {
                Workload.Ref ref = new Workload.Ref(namespace, prefix + i);
                byte[] body = payload.configMap(ref);
                long t0 = System.nanoTime();
                if (!store.createConfigMap(conn, ref, body)) {
                    failedWrites++;
                    continue;
                }
                long ack = System.nanoTime() - t0;
                if (!seen[i].await(WRITE_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    if (i >= warmups) {
                        missed++;
                    }
                    continue;
                }
                if (i < warmups) {
                    continue;
                }
                long[] latencies = new long[watchers];
                long slowest = 0;
                for (int w = 0; w < watchers; w++) {
                    latencies[w] = arrivals[w][i] - t0;
                    slowest = Math.max(slowest, latencies[w]);
                }
                last.add(slowest);
                median.add(Samples.median(latencies));
                answered.add(ack);
            }
        } finally {
            // Abort all first, then wait: a thousand sequential close-and-join would add up.
            streams.forEach(WatchStream::abort);
            for (WatchStream stream : streams) {
                stream.join();
            }
        }
        Outcome outcome =
                new Outcome(
                        store.name(),
                        watchers,
                        writes,
                        last,
                        median,
                        answered,
                        missed,
                        failedWrites,
                        problems(streams));
        System.err.println(outcome.summary());
        return outcome;
    }

    /** The write number in an object name {@code <prefix><n>}, or -1 for anything else. */
    private static int sequence(String name, String prefix) {
        if (!name.startsWith(prefix)) {
            return -1;
        }
        try {
            return Integer.parseInt(name.substring(prefix.length()));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    private static List<String> problems(List<WatchStream> streams) {
        List<String> problems = new ArrayList<>();
        int more = 0;
        for (WatchStream stream : streams) {
            if (stream.problem() != null) {
                if (problems.size() < PROBLEMS_KEPT) {
                    problems.add(stream.problem());
                } else {
                    more++;
                }
            }
        }
        if (more > 0) {
            problems.add("and " + more + " more watchers with problems");
        }
        return problems;
    }
}
