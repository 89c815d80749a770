package io.kubepekko.http.metrics;

import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.Operation;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Gauge;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * kube-apiserver's admission metrics ({@code k8s.io/apiserver/pkg/admission/metrics}): each
 * plugin's and each phase's time, each admission webhook's call time and rejections, under kube's
 * names, labels and buckets.
 *
 * <p>The plugins report on the collections' writers for every user write: their series are looked
 * up once and kept in arrays, so a write allocates nothing here.
 */
final class AdmissionLatencies implements AdmissionObserver {

    /** kube's buckets of the plugin and phase histograms: 5 ms to 2.5 s. */
    static final double[] BUCKETS = {0.005, 0.025, 0.1, 0.5, 1.0, 2.5};

    /** kube's buckets of the webhook histogram, which reach its 30 s timeouts. */
    static final double[] WEBHOOK_BUCKETS = {0.005, 0.025, 0.1, 0.5, 1.0, 2.5, 10, 25};

    private static final int OPERATIONS = Operation.values().length;

    private static final int SERIES = 2 * OPERATIONS * 2;

    private final Histogram controllers;
    private final Histogram steps;
    private final Histogram webhooks;
    private final Gauge webhookRejections;

    /** Series looked up: by plugin name, then {@link #index}. Replaced when the metrics reset. */
    private volatile Map<String, AtomicReferenceArray<DistributionDataPoint>> pluginSeries =
            new ConcurrentHashMap<>();

    private volatile AtomicReferenceArray<DistributionDataPoint> stepSeries =
            new AtomicReferenceArray<>(SERIES);

    AdmissionLatencies(PrometheusRegistry registry) {
        steps =
                Histogram.builder()
                        .name("apiserver_admission_step_admission_duration_seconds")
                        .help(
                                "[STABLE] Admission sub-step latency histogram in seconds, broken"
                                        + " out for each operation and API resource and step type"
                                        + " (validate or admit).")
                        .labelNames("type", "operation", "rejected")
                        .classicOnly()
                        .classicUpperBounds(BUCKETS)
                        .withoutExemplars()
                        .register(registry);
        controllers =
                Histogram.builder()
                        .name("apiserver_admission_controller_admission_duration_seconds")
                        .help(
                                "[STABLE] Admission controller latency histogram in seconds,"
                                        + " identified by name and broken out for each operation"
                                        + " and API resource and type (validate or admit).")
                        .labelNames("name", "type", "operation", "rejected")
                        .classicOnly()
                        .classicUpperBounds(BUCKETS)
                        .withoutExemplars()
                        .register(registry);
        webhooks =
                Histogram.builder()
                        .name("apiserver_admission_webhook_admission_duration_seconds")
                        .help(
                                "[STABLE] Admission webhook latency histogram in seconds,"
                                        + " identified by name and broken out for each operation"
                                        + " and API resource and type (validate or admit).")
                        .labelNames("name", "type", "operation", "rejected")
                        .classicOnly()
                        .classicUpperBounds(WEBHOOK_BUCKETS)
                        .withoutExemplars()
                        .register(registry);
        // kube's counter, whose name ends in _count: the library would export a counter as
        // ..._count_total, so it is a gauge that only goes up, under kube's exact name.
        webhookRejections =
                Gauge.builder()
                        .name("apiserver_admission_webhook_rejection_count")
                        .help(
                                "[ALPHA] Admission webhook rejection count, identified by name and"
                                        + " broken out for each admission type (validating or"
                                        + " admit) and operation. Additional labels specify an"
                                        + " error type (calling_webhook_error or"
                                        + " apiserver_internal_error if an error occurred;"
                                        + " no_error otherwise) and optionally a non-zero"
                                        + " rejection code if the webhook rejects the request with"
                                        + " an HTTP status code (honored by the apiserver when the"
                                        + " code is greater or equal to 400). Codes greater than"
                                        + " 600 are truncated to 600, to keep the metrics"
                                        + " cardinality bounded.")
                        .labelNames("name", "type", "operation", "error_type", "rejection_code")
                        .withoutExemplars()
                        .register(registry);
    }

    @Override
    public void plugin(
            String name, Phase phase, Operation operation, boolean rejected, long nanos) {
        Map<String, AtomicReferenceArray<DistributionDataPoint>> known = pluginSeries;
        AtomicReferenceArray<DistributionDataPoint> series = known.get(name);
        if (series == null) {
            series = known.computeIfAbsent(name, n -> new AtomicReferenceArray<>(SERIES));
        }
        int i = index(phase, operation, rejected);
        DistributionDataPoint point = series.get(i);
        if (point == null) {
            point =
                    controllers.labelValues(
                            name, phase.label(), operation.name(), Boolean.toString(rejected));
            series.set(i, point);
        }
        point.observe(nanos / 1e9);
    }

    @Override
    public void step(Phase phase, Operation operation, boolean rejected, long nanos) {
        AtomicReferenceArray<DistributionDataPoint> series = stepSeries;
        int i = index(phase, operation, rejected);
        DistributionDataPoint point = series.get(i);
        if (point == null) {
            point = steps.labelValues(phase.label(), operation.name(), Boolean.toString(rejected));
            series.set(i, point);
        }
        point.observe(nanos / 1e9);
    }

    @Override
    public void webhook(
            String name, boolean mutating, String operation, boolean rejected, long nanos) {
        webhooks.labelValues(name, type(mutating), operation, Boolean.toString(rejected))
                .observe(nanos / 1e9);
    }

    @Override
    public void webhookRejected(
            String name, boolean mutating, String operation, WebhookRejection why, int code) {
        webhookRejections
                .labelValues(
                        name,
                        type(mutating),
                        operation,
                        why.label(),
                        Integer.toString(Math.min(code, 600)))
                .inc();
    }

    /** Forgets every series, as kube's {@code Reset} of its vectors. */
    void reset() {
        pluginSeries = new ConcurrentHashMap<>();
        stepSeries = new AtomicReferenceArray<>(SERIES);
        controllers.clear();
        steps.clear();
        webhooks.clear();
        webhookRejections.clear();
    }

    /** kube's {@code type} of a webhook: "admit" for a mutating one, "validating" else. */
    private static String type(boolean mutating) {
        return mutating ? "admit" : "validating";
    }

    private static int index(Phase phase, Operation operation, boolean rejected) {
        return (phase.ordinal() * OPERATIONS + operation.ordinal()) * 2 + (rejected ? 1 : 0);
    }
}
