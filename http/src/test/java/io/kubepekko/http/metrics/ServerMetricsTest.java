package io.kubepekko.http.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.api.Verb;
import io.kubepekko.api.metrics.DeprecatedApiRequests;
import io.kubepekko.api.metrics.RequestLabels;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The exposition of the server's metrics: kube's names, types, labels and buckets. */
class ServerMetricsTest {

    private final DeprecatedApiRequests deprecated = new DeprecatedApiRequests();
    private final ServerMetrics metrics =
            new ServerMetrics(
                    deprecated,
                    () ->
                            CompletableFuture.completedFuture(
                                    Map.of("configmaps", 3L, "deployments.apps", -1L)));

    private static final RequestLabels GET =
            RequestLabels.of(
                    Verb.GET, "GET", "", "v1", "configmaps", null, "ns", "c", null, List.of());

    private PrometheusText scrape() throws Exception {
        return PrometheusText.parse(
                new String(metrics.scrape().toCompletableFuture().get(), StandardCharsets.UTF_8));
    }

    private static double bound(String le) {
        return le.equals("+Inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
    }

    @Test
    void aServedRequestIsCountedWithKubesLabels() throws Exception {
        metrics.served(GET, 200, 1500, 2_000_000);
        metrics.served(GET, 200, 10, 1_000_000);
        metrics.served(GET, 404, 200, 1_000_000);
        PrometheusText text = scrape();
        assertEquals("counter", text.type("apiserver_request_total"));
        assertTrue(text.help("apiserver_request_total").startsWith("[STABLE] Counter of"));
        Map<String, String> ok =
                Map.of(
                        "verb", "GET",
                        "dry_run", "",
                        "group", "",
                        "version", "v1",
                        "resource", "configmaps",
                        "subresource", "",
                        "scope", "resource",
                        "component", "apiserver",
                        "code", "200");
        List<PrometheusText.Sample> counted = text.samples("apiserver_request_total", ok);
        assertEquals(1, counted.size());
        assertEquals(ok, counted.get(0).labels());
        assertEquals(2, counted.get(0).value());
        assertEquals(
                1, text.value("apiserver_request_total", Map.of("code", "404", "verb", "GET")));
    }

    @Test
    void durationsAndSizesAreHistogramsWithKubesBuckets() throws Exception {
        metrics.served(GET, 200, 1500, 30_000_000);
        PrometheusText text = scrape();
        assertEquals("histogram", text.type("apiserver_request_duration_seconds"));
        double[] bounds =
                text.samples("apiserver_request_duration_seconds_bucket", Map.of()).stream()
                        .mapToDouble(s -> bound(s.labels().get("le")))
                        .toArray();
        double[] kube = {
            0.005,
            0.025,
            0.05,
            0.1,
            0.2,
            0.4,
            0.6,
            0.8,
            1.0,
            1.25,
            1.5,
            2,
            3,
            4,
            5,
            6,
            8,
            10,
            15,
            20,
            30,
            45,
            60,
            Double.POSITIVE_INFINITY
        };
        assertEquals(Arrays.toString(kube), Arrays.toString(bounds));
        // 30 ms: above the 0.025 bucket, within 0.05.
        assertEquals(
                0, text.value("apiserver_request_duration_seconds_bucket", Map.of("le", "0.025")));
        assertEquals(
                1, text.value("apiserver_request_duration_seconds_bucket", Map.of("le", "0.05")));
        assertEquals(
                1,
                text.value(
                        "apiserver_request_duration_seconds_count",
                        Map.of("verb", "GET", "dry_run", "", "scope", "resource")));
        assertFalse(
                text.samples("apiserver_request_duration_seconds_bucket", Map.of())
                        .get(0)
                        .labels()
                        .containsKey("code"));

        double[] sizes =
                text.samples("apiserver_response_sizes_bucket", Map.of()).stream()
                        .mapToDouble(s -> bound(s.labels().get("le")))
                        .toArray();
        assertEquals(
                Arrays.toString(
                        new double[] {1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, Double.POSITIVE_INFINITY}),
                Arrays.toString(sizes));
        assertEquals(1500, text.value("apiserver_response_sizes_sum", Map.of("verb", "GET")));
    }

    @Test
    void aWriteHasNoResponseSize() throws Exception {
        RequestLabels create =
                RequestLabels.of(
                        Verb.CREATE,
                        "POST",
                        "",
                        "v1",
                        "configmaps",
                        null,
                        "ns",
                        null,
                        null,
                        List.of("All"));
        metrics.served(create, 201, 500, 1_000_000);
        PrometheusText text = scrape();
        assertEquals(
                1,
                text.value(
                        "apiserver_request_total",
                        Map.of("verb", "POST", "dry_run", "All", "code", "201")));
        assertEquals(0, text.value("apiserver_response_sizes_count", Map.of("verb", "POST")));
    }

    @Test
    void aLongRunningRequestIsCountedUntilItEnds() throws Exception {
        RequestLabels watch =
                RequestLabels.of(
                        Verb.WATCH,
                        "GET",
                        "",
                        "v1",
                        "configmaps",
                        null,
                        "ns",
                        null,
                        null,
                        List.of());
        Runnable end = metrics.longRunning(watch);
        Map<String, String> labels =
                Map.of("verb", "WATCH", "resource", "configmaps", "scope", "namespace");
        assertEquals("gauge", scrape().type("apiserver_longrunning_requests"));
        assertEquals(1, scrape().value("apiserver_longrunning_requests", labels));
        end.run();
        assertEquals(0, scrape().value("apiserver_longrunning_requests", labels));
    }

    @Test
    void watchEventsStorageObjectsAndDeprecatedApisAreExported() throws Exception {
        metrics.watchEvents("", "v1", "configmaps").inc();
        metrics.watchEvents("", "v1", "configmaps").inc();
        deprecated.requested(
                new DeprecatedApiRequests.Series(
                        "networking.k8s.io", "v1beta1", "ipaddresses", null, "1.37"));
        PrometheusText text = scrape();
        assertEquals(
                2,
                text.value(
                        "apiserver_watch_events_total",
                        Map.of("group", "", "version", "v1", "resource", "configmaps")));
        assertEquals("gauge", text.type("apiserver_storage_objects"));
        assertEquals(3, text.value("apiserver_storage_objects", Map.of("resource", "configmaps")));
        assertEquals(
                -1,
                text.value("apiserver_storage_objects", Map.of("resource", "deployments.apps")));
        assertEquals(
                1,
                text.value(
                        "apiserver_requested_deprecated_apis",
                        Map.of(
                                "group", "networking.k8s.io",
                                "version", "v1beta1",
                                "resource", "ipaddresses",
                                "subresource", "",
                                "removed_release", "1.37")));
    }

    @Test
    void theJvmIsMeasuredByTheLibrarysCollectors() throws Exception {
        PrometheusText text = scrape();
        assertEquals("gauge", text.type("jvm_memory_used_bytes"));
        assertTrue(text.value("jvm_memory_used_bytes", Map.of("area", "heap")) > 0);
        assertTrue(text.type("jvm_threads_current") != null);
    }
}
