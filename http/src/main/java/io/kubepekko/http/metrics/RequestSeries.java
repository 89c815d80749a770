package io.kubepekko.http.metrics;

import io.kubepekko.api.metrics.RequestLabels;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The series a served request is recorded in ({@code apiserver_request_total}, {@code
 * apiserver_request_duration_seconds}, {@code apiserver_response_sizes}), kept per label values:
 * the library finds a series by building a key of all its label values, three times per request,
 * while a server sees the same few label values over and over.
 *
 * <p>What is kept is only a shortcut to the library's series: at most a limit of label values (then
 * it starts over), and dropped whenever the metrics are reset, after them, so that no request
 * records in a series the reset removed once the reset has returned.
 */
final class RequestSeries {
    static final int LIMIT = 4096;

    /** Status codes with a slot of their own; others are looked up each time. */
    private static final int CODES = 600;

    private final Counter requests;
    private final Histogram durations;
    private final Histogram sizes;
    private final int limit;
    private volatile ConcurrentHashMap<RequestLabels, Points> kept = new ConcurrentHashMap<>();

    /**
     * @param limit how many label values' series are kept at most ({@link #LIMIT} in a server)
     */
    RequestSeries(Counter requests, Histogram durations, Histogram sizes, int limit) {
        this.limit = limit;
        this.requests = requests;
        this.durations = durations;
        this.sizes = sizes;
    }

    /** One served request (see {@link ServerMetrics#served}). */
    void served(RequestLabels l, int code, long responseBytes, long nanos) {
        ConcurrentHashMap<RequestLabels, Points> points = kept;
        Points p = points.get(l);
        if (p == null) {
            if (points.size() >= limit) {
                points.clear();
            }
            p = points.computeIfAbsent(l, this::points);
        }
        p.requests(code).inc();
        p.duration.observe(nanos / 1e9);
        if (responseBytes >= 0 && p.size != null) {
            p.size.observe(responseBytes);
        }
    }

    /** How many label values' series are kept now. */
    int kept() {
        return kept.size();
    }

    /** Forgets the kept series: called after the metrics themselves were cleared. */
    void forget() {
        kept = new ConcurrentHashMap<>();
    }

    private Points points(RequestLabels l) {
        DistributionDataPoint duration =
                durations.labelValues(
                        l.verb(),
                        l.dryRun(),
                        l.group(),
                        l.version(),
                        l.resource(),
                        l.subresource(),
                        l.scope(),
                        RequestLabels.COMPONENT);
        DistributionDataPoint size =
                l.sized()
                        ? sizes.labelValues(
                                l.verb(),
                                l.group(),
                                l.version(),
                                l.resource(),
                                l.subresource(),
                                l.scope(),
                                RequestLabels.COMPONENT)
                        : null;
        return new Points(l, duration, size);
    }

    /** One label values' series; the request counter's per status code, found when first used. */
    private final class Points {
        private final RequestLabels labels;
        private final DistributionDataPoint duration;
        private final DistributionDataPoint size;
        private final AtomicReferenceArray<CounterDataPoint> byCode =
                new AtomicReferenceArray<>(CODES);

        Points(RequestLabels labels, DistributionDataPoint duration, DistributionDataPoint size) {
            this.labels = labels;
            this.duration = duration;
            this.size = size;
        }

        CounterDataPoint requests(int code) {
            if (code < 0 || code >= CODES) {
                return counter(Integer.toString(code));
            }
            CounterDataPoint c = byCode.get(code);
            if (c == null) {
                c = counter(ServerMetrics.code(code));
                byCode.set(code, c);
            }
            return c;
        }

        private CounterDataPoint counter(String code) {
            return requests.labelValues(
                    labels.verb(),
                    labels.dryRun(),
                    labels.group(),
                    labels.version(),
                    labels.resource(),
                    labels.subresource(),
                    labels.scope(),
                    RequestLabels.COMPONENT,
                    code);
        }
    }
}
