package io.kubepekko.http;

import static io.kubepekko.http.TestApiServer.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.kubepekko.http.metrics.PrometheusText;
import io.kubepekko.http.security.CertificateIssuer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /metrics} of a running server, scraped as Prometheus scrapes it: kube's request metrics
 * count what clients did with kube's labels, the long-running gauge an open watch, the storage
 * gauge the objects stored; and only {@code system:monitoring} (or the admin) may scrape.
 */
class MetricsIT {

    private static final AtomicInteger names = new AtomicInteger();
    private static final ObjectMapper JSON = new ObjectMapper();

    @RegisterExtension static final TestApiServer api = TestApiServer.perClass();

    /**
     * Every request goes to one node: metrics are each server's own (in a cluster run, {@link
     * TestApiServer} would spread them).
     */
    private static Response get(String path) {
        return api.call("GET", path).on(api.server()).send();
    }

    private static Response post(String path, String body) {
        return api.call("POST", path).on(api.server()).json(body).send();
    }

    private static String newNamespace() {
        String ns = "metrics-" + names.incrementAndGet();
        post(
                        "/api/v1/namespaces",
                        json(
                                "{'apiVersion':'v1','kind':'Namespace','metadata':{'name':'"
                                        + ns
                                        + "'}}"))
                .assertCode(201);
        return ns;
    }

    private static String configMap(String name) {
        return json(
                "{'apiVersion':'v1','kind':'ConfigMap','metadata':{'name':'"
                        + name
                        + "'},'data':{'k':'v'}}");
    }

    private static PrometheusText scrape() {
        Response r = get("/metrics").assertCode(200);
        assertEquals("text/plain", r.mediaType());
        assertEquals("0.0.4", r.mediaTypeParams().get("version"));
        return PrometheusText.parse(r.text());
    }

    /** kube's labels of a request to the core group's configmaps, with these on top. */
    private static Map<String, String> configMaps(String... more) {
        Map<String, String> labels = new HashMap<>();
        labels.put("group", "");
        labels.put("version", "v1");
        labels.put("resource", "configmaps");
        labels.put("subresource", "");
        labels.put("component", "apiserver");
        for (int i = 0; i < more.length; i += 2) {
            labels.put(more[i], more[i + 1]);
        }
        return labels;
    }

    private static double requests(PrometheusText text, String... labels) {
        return text.value("apiserver_request_total", configMaps(labels));
    }

    @Test
    void requestsAreCountedWithKubesLabelsAndTheirDurationsAndSizesObserved() {
        String ns = newNamespace();
        String path = "/api/v1/namespaces/" + ns + "/configmaps";
        PrometheusText before = scrape();

        post(path, configMap("a")).assertCode(201);
        post(path, configMap("b")).assertCode(201);
        post(path + "?dryRun=All", configMap("c")).assertCode(201);
        get(path + "/a").assertCode(200);
        get(path + "/a").assertCode(200);
        get(path + "/missing").assertCode(404);
        get(path).assertCode(200);
        get("/api/v1/configmaps").assertCode(200);
        api.call("PATCH", path + "/a?fieldManager=m")
                .on(api.server())
                .body(
                        "application/apply-patch+yaml",
                        "{\"apiVersion\":\"v1\",\"kind\":\"ConfigMap\",\"data\":{\"k\":\"v\"}}")
                .send()
                .assertCode(200);
        api.call("PATCH", path + "/a")
                .on(api.server())
                .body("application/merge-patch+json", "{\"data\":{\"k2\":\"v\"}}")
                .send()
                .assertCode(200);

        PrometheusText after = scrape();
        String[][] cases = {
            {"verb", "POST", "dry_run", "", "scope", "resource", "code", "201"},
            {"verb", "POST", "dry_run", "All", "scope", "resource", "code", "201"},
            {"verb", "GET", "dry_run", "", "scope", "resource", "code", "200"},
            {"verb", "GET", "dry_run", "", "scope", "resource", "code", "404"},
            {"verb", "LIST", "dry_run", "", "scope", "namespace", "code", "200"},
            {"verb", "LIST", "dry_run", "", "scope", "cluster", "code", "200"},
            {"verb", "APPLY", "dry_run", "", "scope", "resource", "code", "200"},
            {"verb", "PATCH", "dry_run", "", "scope", "resource", "code", "200"},
        };
        double[] counted = {2, 1, 2, 1, 1, 1, 1, 1};
        for (int i = 0; i < cases.length; i++) {
            assertEquals(
                    counted[i],
                    requests(after, cases[i]) - requests(before, cases[i]),
                    String.join(",", cases[i]));
        }
        // Each series has kube's nine labels, no more, written in name order as Go's client does.
        PrometheusText.Sample one =
                after.samples("apiserver_request_total", configMaps(cases[2])).get(0);
        assertEquals(
                List.of(
                        "code",
                        "component",
                        "dry_run",
                        "group",
                        "resource",
                        "scope",
                        "subresource",
                        "verb",
                        "version"),
                List.copyOf(one.labels().keySet()));

        Map<String, String> gets = configMaps("verb", "GET", "dry_run", "", "scope", "resource");
        assertEquals(
                3,
                after.value("apiserver_request_duration_seconds_count", gets)
                        - before.value("apiserver_request_duration_seconds_count", gets));
        Map<String, String> sized = configMaps("verb", "GET", "scope", "resource");
        sized.remove("dry_run");
        assertEquals(
                3,
                after.value("apiserver_response_sizes_count", sized)
                        - before.value("apiserver_response_sizes_count", sized));
        assertTrue(
                after.value("apiserver_response_sizes_sum", sized)
                                - before.value("apiserver_response_sizes_sum", sized)
                        > 0);
        // Writes have no response size, as in kube.
        assertEquals(0, after.value("apiserver_response_sizes_count", configMaps("verb", "POST")));
    }

    @Test
    void storageObjectsCountTheStoredConfigMaps() {
        String ns = newNamespace();
        for (int i = 0; i < 3; i++) {
            post("/api/v1/namespaces/" + ns + "/configmaps", configMap("s" + i)).assertCode(201);
        }
        // Other tests and the controllers may store ConfigMaps meanwhile: the count is compared
        // with a list made right after the scrape until the two agree.
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () -> {
                            double scraped =
                                    scrape().value(
                                                    "apiserver_storage_objects",
                                                    Map.of("resource", "configmaps"));
                            int listed =
                                    get("/api/v1/configmaps")
                                            .assertCode(200)
                                            .json()
                                            .path("items")
                                            .size();
                            return scraped == listed && listed >= 3;
                        });
        assertTrue(
                scrape().value("apiserver_storage_objects", Map.of("resource", "namespaces")) >= 1);
        assertTrue(
                scrape().samples(
                                        "apiserver_storage_objects",
                                        Map.of("resource", "deployments.apps"))
                                .size()
                        == 1);
    }

    @Test
    void anOpenWatchIsLongRunningAndItsEventsAreCounted() {
        String ns = newNamespace();
        String path = "/api/v1/namespaces/" + ns + "/secrets";
        Map<String, String> watches =
                Map.of(
                        "verb", "WATCH",
                        "group", "",
                        "version", "v1",
                        "resource", "secrets",
                        "scope", "namespace",
                        "component", "apiserver");
        Map<String, String> events = Map.of("group", "", "version", "v1", "resource", "secrets");
        PrometheusText before = scrape();
        double eventsBefore = before.value("apiserver_watch_events_total", events);
        double watchesBefore = before.value("apiserver_request_total", withCode(watches, "200"));

        try (WatchClient watch = WatchClient.open(api.server().url(), path + "?watch=1")) {
            assertEquals(200, watch.code());
            Awaitility.await()
                    .atMost(Duration.ofSeconds(30))
                    .until(() -> scrape().value("apiserver_longrunning_requests", watches) == 1);
            for (int i = 0; i < 2; i++) {
                post(
                                path,
                                json(
                                        "{'apiVersion':'v1','kind':'Secret','metadata':{'name':'w"
                                                + i
                                                + "'}}"))
                        .assertCode(201);
            }
            watch.next(2);
            assertEquals(2, scrape().value("apiserver_watch_events_total", events) - eventsBefore);
            // A watch is recorded when it ends, as kube records it.
            assertEquals(
                    watchesBefore,
                    scrape().value("apiserver_request_total", withCode(watches, "200")));
        }
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(() -> scrape().value("apiserver_longrunning_requests", watches) == 0);
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                scrape().value("apiserver_request_total", withCode(watches, "200"))
                                        == watchesBefore + 1);
    }

    private static Map<String, String> withCode(Map<String, String> labels, String code) {
        Map<String, String> out = new HashMap<>(labels);
        out.put("code", code);
        return out;
    }

    @Test
    void onlySystemMonitoringMayScrape() throws Exception {
        Path kubeconfig = api.server().kubeconfig();
        TlsClients.Kubeconfig admin = TlsClients.kubeconfig(kubeconfig);
        HttpClient anonymous = TlsClients.client(admin.ca(), null, null);
        assertForbidden(TlsClients.get(anonymous, admin.server() + "/metrics"), "system:anonymous");

        CertificateIssuer.Issued plain =
                TlsClients.userCertificate(kubeconfig.getParent(), "carol", List.of());
        HttpClient carol = TlsClients.client(admin.ca(), plain.certificate(), plain.key());
        assertForbidden(TlsClients.get(carol, admin.server() + "/metrics"), "carol");

        CertificateIssuer.Issued monitoring =
                TlsClients.userCertificate(
                        kubeconfig.getParent(), "prometheus", List.of("system:monitoring"));
        HttpClient prometheus =
                TlsClients.client(admin.ca(), monitoring.certificate(), monitoring.key());
        HttpResponse<String> scraped = TlsClients.get(prometheus, admin.server() + "/metrics");
        assertEquals(200, scraped.statusCode(), scraped.body());
        PrometheusText text = PrometheusText.parse(scraped.body());
        assertEquals("counter", text.type("apiserver_request_total"));
        assertEquals("histogram", text.type("apiserver_request_duration_seconds"));
        assertEquals("gauge", text.type("jvm_memory_used_bytes"));
    }

    @Test
    void admissionJournalWatchCacheAndShardingFiguresAreExported() {
        String ns = newNamespace();
        String path = "/api/v1/namespaces/" + ns + "/configmaps";
        Map<String, String> limitRanger =
                Map.of("name", "LimitRanger", "type", "admit", "operation", "CREATE");
        Map<String, String> quota =
                Map.of("name", "ResourceQuota", "type", "validate", "operation", "CREATE");
        Map<String, String> validateStep = Map.of("type", "validate", "operation", "CREATE");
        Map<String, String> configMaps = Map.of("group", "", "resource", "configmaps");
        PrometheusText before = scrape();

        post(path, configMap("x")).assertCode(201);
        post(path, configMap("y")).assertCode(201);

        String controller = "apiserver_admission_controller_admission_duration_seconds_count";
        Awaitility.await()
                .atMost(Duration.ofSeconds(30))
                .until(
                        () ->
                                grew(
                                        before,
                                        scrape(),
                                        "apiserver_watch_cache_events_received_total",
                                        configMaps,
                                        2));
        PrometheusText after = scrape();
        assertTrue(grew(before, after, controller, limitRanger, 2), "LimitRanger admit");
        assertTrue(grew(before, after, controller, quota, 2), "ResourceQuota validate");
        assertTrue(
                grew(
                        before,
                        after,
                        "apiserver_admission_step_admission_duration_seconds_count",
                        validateStep,
                        2),
                "validate step");
        assertTrue(
                grew(
                        before,
                        after,
                        "kubepekko_journal_write_duration_seconds_count",
                        configMaps,
                        1),
                "journal writes");
        assertTrue(
                grew(before, after, "kubepekko_journal_events_written_total", configMaps, 2),
                "journal events");
        assertTrue(after.value("kubepekko_sharding_entities", Map.of("region", "Collection")) >= 1);
        assertTrue(after.value("kubepekko_sharding_entities", Map.of("region", "Revisions")) >= 1);
    }

    private static boolean grew(
            PrometheusText before,
            PrometheusText after,
            String name,
            Map<String, String> labels,
            double by) {
        return after.value(name, labels) - before.value(name, labels) >= by;
    }

    @Test
    void deleteResetsTheMetricsAsKubesMetricsWithReset() throws Exception {
        String ns = newNamespace();
        post("/api/v1/namespaces/" + ns + "/configmaps", configMap("r")).assertCode(201);
        String[] posted = {"verb", "POST", "dry_run", "", "scope", "resource", "code", "201"};
        assertTrue(requests(scrape(), posted) >= 1);

        // Only who may delete the path: system:monitoring may read it, not reset it.
        Path kubeconfig = api.server().kubeconfig();
        TlsClients.Kubeconfig admin = TlsClients.kubeconfig(kubeconfig);
        CertificateIssuer.Issued monitoring =
                TlsClients.userCertificate(
                        kubeconfig.getParent(), "prometheus", List.of("system:monitoring"));
        HttpClient prometheus =
                TlsClients.client(admin.ca(), monitoring.certificate(), monitoring.key());
        HttpResponse<String> refused =
                prometheus.send(
                        HttpRequest.newBuilder(URI.create(admin.server() + "/metrics"))
                                .DELETE()
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertEquals(403, refused.statusCode(), refused.body());
        assertEquals(
                "forbidden: User \"prometheus\" cannot delete path \"/metrics\"",
                JSON.readTree(refused.body()).path("message").asText());
        assertTrue(requests(scrape(), posted) >= 1);

        Response reset = api.call("DELETE", "/metrics").on(api.server()).send().assertCode(200);
        assertEquals("metrics reset\n", reset.text());
        PrometheusText after = scrape();
        assertTrue(after.samples("apiserver_request_total", configMaps(posted)).isEmpty());
        assertTrue(
                after.samples(
                                "apiserver_admission_controller_admission_duration_seconds_count",
                                Map.of())
                        .isEmpty());
        assertTrue(after.value("jvm_memory_used_bytes", Map.of()) > 0);

        // Counting goes on from zero.
        post("/api/v1/namespaces/" + ns + "/configmaps", configMap("s")).assertCode(201);
        assertEquals(1, requests(scrape(), posted));
    }

    private static void assertForbidden(HttpResponse<String> r, String user) throws Exception {
        assertEquals(403, r.statusCode(), r.body());
        JsonNode status = JSON.readTree(r.body());
        assertEquals("Forbidden", status.path("reason").asText());
        assertEquals(
                "forbidden: User \"" + user + "\" cannot get path \"/metrics\"",
                status.path("message").asText());
    }
}
