package io.kubepekko.http.metrics;

import io.kubepekko.actors.StoreMetrics;
import io.kubepekko.api.GroupResource;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

/**
 * What the store reports, as metrics: the journal's write latency per resource (named for what it
 * is: kube's {@code etcd_request_duration_seconds} times etcd, ours the journal), and kube's {@code
 * apiserver_watch_cache_events_received_total}.
 *
 * <p>A collection or cache asks for its handle once; the handle keeps its series until the metrics
 * are reset (a generation number says when to look it up again), so a write or an event allocates
 * nothing here.
 */
final class StoreFigures implements StoreMetrics.Recorder {

    /**
     * The journal's buckets, from 0.25 ms: a write is one H2 or Cassandra transaction of a batch,
     * which kube's etcd buckets (from 5 ms) would put all in the first.
     */
    static final double[] JOURNAL_BUCKETS = {
        0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10
    };

    private final Histogram journalWrites;
    private final Counter journalEvents;
    private final Counter cacheEvents;
    private volatile int generation;

    StoreFigures(PrometheusRegistry registry) {
        journalWrites =
                Histogram.builder()
                        .name("kubepekko_journal_write_duration_seconds")
                        .help(
                                "Latency of the journal's writes in seconds for each group and"
                                        + " resource: from a collection asking to persist a batch"
                                        + " of changes to the batch being durable.")
                        .labelNames("group", "resource")
                        .classicOnly()
                        .classicUpperBounds(JOURNAL_BUCKETS)
                        .withoutExemplars()
                        .register(registry);
        journalEvents =
                Counter.builder()
                        .name("kubepekko_journal_events_written_total")
                        .help(
                                "Number of changes written to the journal for each group and"
                                        + " resource (one write persists a batch of them).")
                        .labelNames("group", "resource")
                        .withoutExemplars()
                        .register(registry);
        cacheEvents =
                Counter.builder()
                        .name("apiserver_watch_cache_events_received_total")
                        .help(
                                "[ALPHA] Counter of events received in watch cache broken by"
                                        + " resource type.")
                        .labelNames("group", "resource")
                        .withoutExemplars()
                        .register(registry);
    }

    @Override
    public StoreMetrics.JournalWrites journal(GroupResource resource) {
        return new StoreMetrics.JournalWrites() {
            private int seen = -1;
            private DistributionDataPoint latency;
            private CounterDataPoint events;

            @Override
            public void written(int n, long nanos) {
                // Told by one collection's actor at a time: its fields need no more.
                int now = generation;
                if (now != seen) {
                    latency = journalWrites.labelValues(resource.group(), resource.resource());
                    events = journalEvents.labelValues(resource.group(), resource.resource());
                    seen = now;
                }
                latency.observe(nanos / 1e9);
                events.inc(n);
            }
        };
    }

    @Override
    public StoreMetrics.CacheEvents cacheEvents(GroupResource resource) {
        return new StoreMetrics.CacheEvents() {
            private int seen = -1;
            private CounterDataPoint received;

            @Override
            public void received(int n) {
                int now = generation;
                if (now != seen) {
                    received = cacheEvents.labelValues(resource.group(), resource.resource());
                    seen = now;
                }
                if (n > 0) {
                    received.inc(n);
                }
            }
        };
    }

    /** Forgets every series, as kube's {@code Reset} of its vectors. */
    void reset() {
        journalWrites.clear();
        journalEvents.clear();
        cacheEvents.clear();
        generation++;
    }
}
