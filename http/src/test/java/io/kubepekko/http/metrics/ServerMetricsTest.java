package io.kubepekko.http.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.kubepekko.actors.StoreMetrics;
import io.kubepekko.api.GroupResource;
import io.kubepekko.api.Verb;
import io.kubepekko.api.admission.AdmissionObserver;
import io.kubepekko.api.admission.Operation;
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

    @Test
    void admissionTimesAreHistogramsWithKubesNamesLabelsAndBuckets() throws Exception {
        AdmissionObserver admission = metrics.admission();
        admission.plugin(
                "LimitRanger", AdmissionObserver.Phase.ADMIT, Operation.CREATE, false, 3_000_000);
        admission.plugin(
                "LimitRanger", AdmissionObserver.Phase.ADMIT, Operation.CREATE, false, 1_000_000);
        admission.step(AdmissionObserver.Phase.VALIDATE, Operation.DELETE, true, 30_000_000);
        admission.webhook("w.example.com", false, "UPDATE", true, 2_000_000);
        admission.webhookRejected(
                "w.example.com", false, "UPDATE", AdmissionObserver.WebhookRejection.NO_ERROR, 403);
        PrometheusText text = scrape();
        String controller = "apiserver_admission_controller_admission_duration_seconds";
        assertEquals("histogram", text.type(controller));
        assertTrue(text.help(controller).startsWith("[STABLE] Admission controller latency"));
        Map<String, String> limitRanger =
                Map.of(
                        "name", "LimitRanger",
                        "type", "admit",
                        "operation", "CREATE",
                        "rejected", "false");
        assertEquals(2, text.value(controller + "_count", limitRanger));
        assertEquals(0.004, text.value(controller + "_sum", limitRanger), 1e-9);
        assertEquals(
                List.of(0.005, 0.025, 0.1, 0.5, 1.0, 2.5, Double.POSITIVE_INFINITY),
                text.samples(controller + "_bucket", limitRanger).stream()
                        .map(s -> bound(s.labels().get("le")))
                        .toList());
        // 30 ms: in the 0.1 s bucket, not in the 25 ms one.
        assertEquals(
                List.of(0.0, 0.0, 1.0),
                text
                        .samples(
                                "apiserver_admission_step_admission_duration_seconds_bucket",
                                Map.of(
                                        "type",
                                        "validate",
                                        "operation",
                                        "DELETE",
                                        "rejected",
                                        "true"))
                        .stream()
                        .filter(s -> bound(s.labels().get("le")) <= 0.1)
                        .map(PrometheusText.Sample::value)
                        .toList());
        Map<String, String> webhook =
                Map.of(
                        "name", "w.example.com",
                        "type", "validating",
                        "operation", "UPDATE",
                        "rejected", "true");
        assertEquals(
                9,
                text.samples(
                                "apiserver_admission_webhook_admission_duration_seconds_bucket",
                                webhook)
                        .size());
        assertEquals(
                1,
                text.value(
                        "apiserver_admission_webhook_rejection_count",
                        Map.of(
                                "name", "w.example.com",
                                "type", "validating",
                                "operation", "UPDATE",
                                "error_type", "no_error",
                                "rejection_code", "403")));
    }

    @Test
    void theStoreReportsJournalWritesAndCacheEventsPerGroupAndResource() throws Exception {
        GroupResource deployments = new GroupResource("apps", "deployments");
        StoreMetrics.JournalWrites journal = metrics.store().journal(deployments);
        journal.written(3, 400_000);
        journal.written(1, 2_000_000);
        metrics.store().cacheEvents(deployments).received(4);
        PrometheusText text = scrape();
        Map<String, String> labels = Map.of("group", "apps", "resource", "deployments");
        assertEquals("histogram", text.type("kubepekko_journal_write_duration_seconds"));
        assertEquals(2, text.value("kubepekko_journal_write_duration_seconds_count", labels));
        // 0.4 ms falls in the 0.5 ms bucket, 2 ms in the 2.5 ms one.
        assertEquals(
                List.of(0.0, 1.0, 1.0, 2.0),
                text.samples("kubepekko_journal_write_duration_seconds_bucket", labels).stream()
                        .filter(s -> bound(s.labels().get("le")) <= 0.0025)
                        .map(PrometheusText.Sample::value)
                        .toList());
        assertEquals(4, text.value("kubepekko_journal_events_written_total", labels));
        assertEquals(4, text.value("apiserver_watch_cache_events_received_total", labels));
    }

    @Test
    void shardedEntitiesAreCountedAtEachScrape() throws Exception {
        ServerMetrics sharded =
                new ServerMetrics(
                        deprecated,
                        () -> CompletableFuture.completedFuture(Map.of()),
                        () -> CompletableFuture.completedFuture(Map.of("Collection", 7)));
        PrometheusText text =
                PrometheusText.parse(
                        new String(
                                sharded.scrape().toCompletableFuture().get(),
                                StandardCharsets.UTF_8));
        assertEquals("gauge", text.type("kubepekko_sharding_entities"));
        assertEquals(7, text.value("kubepekko_sharding_entities", Map.of("region", "Collection")));
    }

    @Test
    void aResetForgetsEveryLabelledSeriesAndRecordingGoesOn() throws Exception {
        metrics.served(GET, 200, 10, 1_000_000);
        metrics.admission()
                .plugin(
                        "ResourceQuota",
                        AdmissionObserver.Phase.VALIDATE,
                        Operation.CREATE,
                        false,
                        1_000);
        StoreMetrics.JournalWrites journal =
                metrics.store().journal(new GroupResource("", "configmaps"));
        journal.written(1, 1_000);
        metrics.reset();
        PrometheusText reset = scrape();
        assertTrue(reset.samples("apiserver_request_total", Map.of()).isEmpty());
        assertTrue(
                reset.samples(
                                "apiserver_admission_controller_admission_duration_seconds_count",
                                Map.of())
                        .isEmpty());
        assertTrue(
                reset.samples("kubepekko_journal_write_duration_seconds_count", Map.of())
                        .isEmpty());
        assertFalse(reset.samples("jvm_memory_used_bytes", Map.of()).isEmpty());

        // The handles given out before the reset record in fresh series.
        metrics.admission()
                .plugin(
                        "ResourceQuota",
                        AdmissionObserver.Phase.VALIDATE,
                        Operation.CREATE,
                        false,
                        1_000);
        journal.written(2, 1_000);
        metrics.served(GET, 200, 10, 1_000_000);
        PrometheusText after = scrape();
        assertEquals(
                1,
                after.value("apiserver_request_total", Map.of("code", "200", "verb", "GET")),
                "a request after the reset is counted in a fresh series");
        assertEquals(
                1, after.value("apiserver_response_sizes_count", Map.of("resource", "configmaps")));
        assertEquals(
                1,
                after.value(
                        "apiserver_admission_controller_admission_duration_seconds_count",
                        Map.of("name", "ResourceQuota")));
        assertEquals(
                2,
                after.value(
                        "kubepekko_journal_events_written_total",
                        Map.of("resource", "configmaps")));
    }
}
