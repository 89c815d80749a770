package io.kubepekko.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The versions phase of {@link ReadBench}: what it costs to read a collection through a version
 * other than the one it is stored in. Core Events are created through {@code core/v1} (their
 * storage version), then the whole collection is listed through {@code /api/v1/events} and through
 * {@code /apis/events.k8s.io/v1/events}, whose items the server converts one by one, each way
 * consistent and cached, all four interleaved in every round. Ours only: etcd has no versions.
 */
final class VersionListsPhase {

    /** One way of listing the events. */
    enum Way {
        CORE_CONSISTENT("core/v1", "consistent", "/api/v1/events"),
        EVENTS_CONSISTENT("events.k8s.io/v1", "consistent", "/apis/events.k8s.io/v1/events"),
        CORE_CACHED("core/v1", "cached", "/api/v1/events?resourceVersion=0"),
        EVENTS_CACHED(
                "events.k8s.io/v1", "cached", "/apis/events.k8s.io/v1/events?resourceVersion=0");

        final String version;
        final String mode;
        final String path;

        Way(String version, String mode, String path) {
            this.version = version;
            this.mode = mode;
            this.path = path;
        }
    }

    /** What the phase measured: the events listed and each way's timings. */
    record Outcome(int events, Map<Way, ReadResults.ListStats> lists) {
        double p50(Way way) {
            ReadResults.ListStats s = lists.get(way);
            return s == null ? Double.NaN : s.timings().p50();
        }
    }

    /** A label every benchmark event carries once, to count items in a streamed list. */
    private static final String ITEM_MARKER = PodFixture.ITEM_MARKER;

    private final ReadOptions options;

    VersionListsPhase(ReadOptions options) {
        this.options = options;
    }

    Outcome run(ReadStore store) throws IOException, InterruptedException {
        Seeder.createNamespaces(store, options.namespaces());
        int events = options.versionEvents();
        create(store, events);
        Map<Way, Samples> timings = new EnumMap<>(Way.class);
        Map<Way, Long> bytes = new EnumMap<>(Way.class);
        try (HttpConn conn = store.newConnection()) {
            long warmUntil = System.nanoTime() + ReadBench.LIST_WARMUP.toNanos();
            for (int round = 0;
                    round < ReadBench.LIST_WARMUP_ROUNDS || System.nanoTime() < warmUntil;
                    round++) {
                for (Way way : Way.values()) {
                    ListBody body = list(conn, way, true);
                    if (body.items() != events) {
                        throw new IOException(
                                "a "
                                        + way.version
                                        + " "
                                        + way.mode
                                        + " list of "
                                        + events
                                        + " events returned "
                                        + body.items()
                                        + " items");
                    }
                    bytes.put(way, body.bytes());
                }
            }
            for (int round = 0; round < options.reps(events); round++) {
                for (Way way : Way.values()) {
                    long t0 = System.nanoTime();
                    ListBody body = list(conn, way, false);
                    timings.computeIfAbsent(way, w -> new Samples()).add(System.nanoTime() - t0);
                    if (body.bytes() != bytes.get(way)) {
                        throw new IOException(
                                "a "
                                        + way.version
                                        + " "
                                        + way.mode
                                        + " list returned "
                                        + body.bytes()
                                        + " bytes, the checked one "
                                        + bytes.get(way));
                    }
                }
            }
        }
        Map<Way, ReadResults.ListStats> lists = new EnumMap<>(Way.class);
        for (Way way : Way.values()) {
            Samples s = timings.get(way);
            lists.put(way, new ReadResults.ListStats(s, bytes.get(way), 1));
            System.err.printf(
                    Locale.ROOT,
                    "ours: list %,d events %-16s %-10s p50 %8.2f ms  p99 %8.2f ms  %.1f MiB%n",
                    events,
                    way.version,
                    way.mode,
                    s.p50(),
                    s.p99(),
                    bytes.get(way) / 1048576.0);
        }
        return new Outcome(events, lists);
    }

    private void create(ReadStore store, int events) throws IOException, InterruptedException {
        AtomicLong next = new AtomicLong();
        Workers.Result result =
                Workers.run(
                        options.connections(),
                        Workers.Budget.ofCount(events),
                        store::newConnection,
                        (conn, worker, seq) -> {
                            long n = next.getAndIncrement();
                            String namespace =
                                    PodFixture.namespace((int) (n % options.namespaces()));
                            HttpConn.Response response =
                                    conn.send(
                                            "POST",
                                            "/api/v1/namespaces/" + namespace + "/events",
                                            event(namespace, n));
                            return response.status() == 201;
                        });
        if (result.errors() > 0) {
            throw new IOException(
                    result.errors() + " of " + events + " event creates did not answer 201");
        }
    }

    /**
     * A core/v1 Event as a kubelet's recorder writes one (about 900 bytes): every field the
     * conversion to events.k8s.io/v1 renames or moves is set.
     */
    static byte[] event(String namespace, long n) {
        String pod = "pod-" + n;
        String json =
                """
                {"apiVersion":"v1","kind":"Event",\
                "metadata":{"name":"%2$s.%3$016x","namespace":"%1$s","labels":{%4$s}},\
                "involvedObject":{"kind":"Pod","namespace":"%1$s","name":"%2$s",\
                "uid":"6a1c2e0f-%3$04x-4d6b-9a51-0c2f5e7d8b13","apiVersion":"v1",\
                "resourceVersion":"%3$d","fieldPath":"spec.containers{app}"},\
                "reason":"Pulled",\
                "message":"Container image \\"registry.example/team/app:1.4.2\\" already present on machine and\
                 will be reused for the container app of pod %1$s/%2$s",\
                "source":{"component":"kubelet","host":"node-%5$d"},\
                "firstTimestamp":"2026-11-29T10:00:00Z","lastTimestamp":"2026-11-29T10:05:00Z",\
                "count":3,"type":"Normal","eventTime":null,\
                "reportingComponent":"kubelet","reportingInstance":"node-%5$d"}\
                """
                        .formatted(namespace, pod, n, ITEM_MARKER, n % 50);
        return json.getBytes(StandardCharsets.UTF_8);
    }

    private static ListBody list(HttpConn conn, Way way, boolean count) throws IOException {
        ListBody body = new ListBody(ITEM_MARKER, count);
        int status = conn.stream("GET", way.path, null, body);
        if (status != 200) {
            throw new IOException("GET " + way.path + " answered " + status + ": " + body.head());
        }
        return body;
    }
}
