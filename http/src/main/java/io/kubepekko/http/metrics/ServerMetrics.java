package io.kubepekko.http.metrics;

import io.kubepekko.actors.StoreMetrics;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.metrics.DeprecatedApiRequests;
import io.kubepekko.api.metrics.RequestLabels;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.GaugeDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * This server's Prometheus metrics under kube-apiserver's names, types, labels and buckets, with
 * the JVM's from the client library's collectors: one registry per server (tests run several in a
 * JVM), exported by {@link #scrape} in the text exposition format.
 *
 * <p>Recording is the library's lock-free counters and histograms; a request finds its series by
 * its labels ({@link RequestSeries}), nothing else is allocated for it.
 */
public final class ServerMetrics {

    /** The Content-Type of the text exposition format, version 0.0.4, as kube-apiserver sends. */
    public static final String CONTENT_TYPE = PrometheusTextFormatWriter.CONTENT_TYPE;

    /** kube's buckets of {@code apiserver_request_duration_seconds}, in seconds. */
    static final double[] DURATION_BUCKETS = {
        0.005, 0.025, 0.05, 0.1, 0.2, 0.4, 0.6, 0.8, 1.0, 1.25, 1.5, 2, 3, 4, 5, 6, 8, 10, 15, 20,
        30, 45, 60
    };

    /** kube's buckets of {@code apiserver_response_sizes}: 1 kB to 1 GB by tens. */
    static final double[] SIZE_BUCKETS = {1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9};

    /** Status codes as label values, made once. */
    private static final String[] CODES = new String[600];

    static {
        for (int i = 0; i < CODES.length; i++) {
            CODES[i] = Integer.toString(i);
        }
    }

    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final PrometheusTextFormatWriter writer = PrometheusTextFormatWriter.create();
    private final DeprecatedApiRequests deprecatedApis;
    private final ObjectCounts storageObjects;
    private volatile Map<String, Long> storedCounts = Map.of();
    private final EntityCounts shardedEntities;
    private volatile Map<String, Integer> entityCounts = Map.of();
    private final AdmissionLatencies admission;
    private final StoreFigures store;
    private final Counter requests;
    private final Histogram durations;
    private final Histogram sizes;
    private final Gauge longRunning;
    private final Counter watchEvents;
    private final RequestSeries requestSeries;

    /** How many entities of each shard region run on this node, by region name. */
    @FunctionalInterface
    public interface EntityCounts {
        CompletionStage<Map<String, Integer>> count();
    }

    /**
     * @param deprecatedApis the series of {@code apiserver_requested_deprecated_apis}
     * @param storageObjects counts {@code apiserver_storage_objects} at each scrape
     */
    public ServerMetrics(DeprecatedApiRequests deprecatedApis, ObjectCounts storageObjects) {
        this(deprecatedApis, storageObjects, () -> CompletableFuture.completedFuture(Map.of()));
    }

    /**
     * @param deprecatedApis the series of {@code apiserver_requested_deprecated_apis}
     * @param storageObjects counts {@code apiserver_storage_objects} at each scrape
     * @param shardedEntities counts {@code kubepekko_sharding_entities} at each scrape
     */
    public ServerMetrics(
            DeprecatedApiRequests deprecatedApis,
            ObjectCounts storageObjects,
            EntityCounts shardedEntities) {
        this.deprecatedApis = deprecatedApis;
        this.storageObjects = storageObjects;
        this.shardedEntities = shardedEntities;
        requests = requestTotal(registry);
        durations = requestDurations(registry);
        sizes = responseSizes(registry);
        longRunning =
                Gauge.builder()
                        .name("apiserver_longrunning_requests")
                        .help(
                                "[STABLE] Gauge of all active long-running apiserver requests"
                                        + " broken out by verb, group, version, resource, scope"
                                        + " and component. Not all requests are tracked this way.")
                        .labelNames(
                                "verb",
                                "group",
                                "version",
                                "resource",
                                "subresource",
                                "scope",
                                "component")
                        .withoutExemplars()
                        .register(registry);
        watchEvents =
                Counter.builder()
                        .name("apiserver_watch_events_total")
                        .help("[ALPHA] Number of events sent in watch clients")
                        .labelNames("group", "version", "resource")
                        .withoutExemplars()
                        .register(registry);
        GaugeWithCallback.builder()
                .name("apiserver_storage_objects")
                .help(
                        "[STABLE] Number of stored objects at the time of last check split by"
                                + " kind. In case of a fetching error, the value will be -1.")
                .labelNames("resource")
                .callback(
                        callback ->
                                storedCounts.forEach((resource, n) -> callback.call(n, resource)))
                .register(registry);
        GaugeWithCallback.builder()
                .name(DeprecatedApiRequests.NAME)
                .help("[STABLE] " + DeprecatedApiRequests.HELP)
                .labelNames(DeprecatedApiRequests.LABELS.toArray(String[]::new))
                .callback(
                        callback -> {
                            for (DeprecatedApiRequests.Series s : deprecatedApis.series()) {
                                callback.call(s.value(), s.labelValues().toArray(String[]::new));
                            }
                        })
                .register(registry);
        GaugeWithCallback.builder()
                .name("kubepekko_sharding_entities")
                .help(
                        "Number of entities of each Pekko Cluster Sharding region running on this"
                                + " node at the time of the scrape.")
                .labelNames("region")
                .callback(callback -> entityCounts.forEach((region, n) -> callback.call(n, region)))
                .register(registry);
        requestSeries = new RequestSeries(requests, durations, sizes, RequestSeries.LIMIT);
        admission = new AdmissionLatencies(registry);
        store = new StoreFigures(registry);
        JvmMetrics.builder().register(registry);
    }

    /** kube's {@code apiserver_request_total}, registered in {@code registry}. */
    static Counter requestTotal(PrometheusRegistry registry) {
        return Counter.builder()
                .name("apiserver_request_total")
                .help(
                        "[STABLE] Counter of apiserver requests broken out for each verb,"
                                + " dry run value, group, version, resource, scope,"
                                + " component, and HTTP response code.")
                .labelNames(
                        "verb",
                        "dry_run",
                        "group",
                        "version",
                        "resource",
                        "subresource",
                        "scope",
                        "component",
                        "code")
                .withoutExemplars()
                .register(registry);
    }

    /** kube's {@code apiserver_request_duration_seconds}, registered in {@code registry}. */
    static Histogram requestDurations(PrometheusRegistry registry) {
        return Histogram.builder()
                .name("apiserver_request_duration_seconds")
                .help(
                        "[STABLE] Response latency distribution in seconds for each verb,"
                                + " dry run value, group, version, resource, subresource,"
                                + " scope and component.")
                .labelNames(
                        "verb",
                        "dry_run",
                        "group",
                        "version",
                        "resource",
                        "subresource",
                        "scope",
                        "component")
                .classicOnly()
                .classicUpperBounds(DURATION_BUCKETS)
                .withoutExemplars()
                .register(registry);
    }

    /** kube's {@code apiserver_response_sizes}, registered in {@code registry}. */
    static Histogram responseSizes(PrometheusRegistry registry) {
        return Histogram.builder()
                .name("apiserver_response_sizes")
                .help(
                        "[STABLE] Response size distribution in bytes for each group,"
                                + " version, verb, resource, subresource, scope and"
                                + " component.")
                .labelNames(
                        "verb", "group", "version", "resource", "subresource", "scope", "component")
                .classicOnly()
                .classicUpperBounds(SIZE_BUCKETS)
                .withoutExemplars()
                .register(registry);
    }

    /** Where the admission chain and the webhooks report their times. */
    public AdmissionObserver admission() {
        return admission;
    }

    /**
     * Where the store (journal writes, watch caches) reports; install it before the store starts.
     */
    public StoreMetrics.Recorder store() {
        return store;
    }

    /**
     * Forgets every labelled series, as kube's {@code DELETE /metrics} resets its registry's
     * vectors: requests, their durations and sizes, watch events, admission and store figures. The
     * JVM's collectors and the gauges counted at each scrape are not reset (kube's go and process
     * collectors are not either; a counted gauge is counted again). A watch that is streaming
     * counts its later events and its end in series the reset dropped, which are not exported
     * again.
     */
    public void reset() {
        requests.clear();
        durations.clear();
        sizes.clear();
        longRunning.clear();
        watchEvents.clear();
        admission.reset();
        store.reset();
        requestSeries.forget();
    }

    /**
     * One served request, as kube's {@code MonitorRequest} records it.
     *
     * @param responseBytes the body's size, or a negative number when it is not known (streamed)
     */
    public void served(RequestLabels l, int code, long responseBytes, long nanos) {
        requestSeries.served(l, code, responseBytes, nanos);
    }

    /** A status code as a label value. */
    static String code(int code) {
        return code >= 0 && code < CODES.length ? CODES[code] : Integer.toString(code);
    }

    /**
     * A long-running request starts: counted in {@code apiserver_longrunning_requests} until the
     * returned action runs (once, when it ends).
     */
    public Runnable longRunning(RequestLabels l) {
        GaugeDataPoint open =
                longRunning.labelValues(
                        l.verb(),
                        l.group(),
                        l.version(),
                        l.resource(),
                        l.subresource(),
                        l.scope(),
                        RequestLabels.COMPONENT);
        open.inc();
        return open::dec;
    }

    /** The series of {@code apiserver_requested_deprecated_apis}, which the routes record. */
    public DeprecatedApiRequests deprecatedApis() {
        return deprecatedApis;
    }

    /** The counter of events sent to watchers of one resource in one version. */
    public CounterDataPoint watchEvents(String group, String version, String resource) {
        return watchEvents.labelValues(group == null ? "" : group, version, resource);
    }

    /** Every metric in the text exposition format, the storage and entity counts fresh. */
    public CompletionStage<byte[]> scrape() {
        return storageObjects
                .count()
                .thenCombine(
                        shardedEntities.count(),
                        (counts, entities) -> {
                            storedCounts = counts;
                            entityCounts = entities;
                            return text();
                        });
    }

    private byte[] text() {
        ByteArrayOutputStream out = new ByteArrayOutputStream(64 * 1024);
        try {
            writer.write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }
}
