package io.kubepekko.http.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.Verb;
import io.kubepekko.api.metrics.RequestLabels;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The series kept per label values: every request counted, whatever was kept or dropped. */
class RequestSeriesTest {
    private final PrometheusRegistry registry = new PrometheusRegistry();
    private final Counter requests = ServerMetrics.requestTotal(registry);
    private final Histogram durations = ServerMetrics.requestDurations(registry);
    private final Histogram sizes = ServerMetrics.responseSizes(registry);
    private final RequestSeries series = new RequestSeries(requests, durations, sizes, 3);

    private static RequestLabels get(String resource) {
        return RequestLabels.of(
                Verb.GET, "GET", "", "v1", resource, null, "ns", "c", null, List.of());
    }

    private PrometheusText scrape() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrometheusTextFormatWriter.create()
                .write(out, registry.scrape(), EscapingScheme.UNDERSCORE_ESCAPING);
        return PrometheusText.parse(out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void everyRequestIsCountedPastTheNumberOfLabelValuesKept() throws Exception {
        for (int i = 0; i < 10; i++) {
            series.served(get("r" + i), 200, 10, 1_000_000);
        }
        series.served(get("r0"), 200, 10, 1_000_000);
        series.served(get("r0"), 200, -1, 1_000_000);
        series.served(get("r0"), 799, 10, 1_000_000);
        series.served(get("r0"), -1, 10, 1_000_000);
        assertTrue(series.kept() <= 3, "kept: " + series.kept());
        PrometheusText text = scrape();
        assertEquals(
                3, text.value("apiserver_request_total", Map.of("resource", "r0", "code", "200")));
        assertEquals(
                1, text.value("apiserver_request_total", Map.of("resource", "r0", "code", "799")));
        assertEquals(
                1, text.value("apiserver_request_total", Map.of("resource", "r0", "code", "-1")));
        assertEquals(
                1, text.value("apiserver_request_total", Map.of("resource", "r9", "code", "200")));
        assertEquals(
                5,
                text.value("apiserver_request_duration_seconds_count", Map.of("resource", "r0")));
        assertEquals(
                4,
                text.value("apiserver_response_sizes_count", Map.of("resource", "r0")),
                "a size not known is not observed");
    }

    @Test
    void aWriteHasNoResponseSize() throws Exception {
        series.served(
                RequestLabels.of(
                        Verb.CREATE, "POST", "", "v1", "pods", null, "ns", null, null, List.of()),
                201,
                10,
                1_000_000);
        PrometheusText text = scrape();
        assertEquals(
                1, text.value("apiserver_request_total", Map.of("verb", "POST", "code", "201")));
        assertEquals(0, text.value("apiserver_response_sizes_count", Map.of("verb", "POST")));
    }

    @Test
    void afterForgetTheSeriesAreLookedUpAgain() throws Exception {
        series.served(get("r0"), 200, 10, 1_000_000);
        requests.clear();
        durations.clear();
        sizes.clear();
        series.forget();
        series.served(get("r0"), 200, 10, 1_000_000);
        PrometheusText text = scrape();
        assertEquals(
                1, text.value("apiserver_request_total", Map.of("resource", "r0", "code", "200")));
        assertEquals(
                1,
                text.value("apiserver_request_duration_seconds_count", Map.of("resource", "r0")));
        assertEquals(1, text.value("apiserver_response_sizes_count", Map.of("resource", "r0")));
    }
}
